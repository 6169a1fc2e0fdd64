import { Toaster as SonnerToaster } from 'sonner';

/** Mounted once at the root of the app. */
export function Toaster() {
  return (
    <SonnerToaster
      position="top-center"
      richColors
      closeButton
      offset={16}
      mobileOffset={12}
      toastOptions={{ className: 'font-sans' }}
      containerAriaLabel="Notifications"
    />
  );
}
