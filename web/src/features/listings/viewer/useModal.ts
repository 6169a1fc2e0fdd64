import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * Opens a <dialog> as a modal for as long as the component is mounted: showModal() makes the page
 * behind inert; focus starts on `first`; Tab and Shift+Tab wrap inside the dialog (the browser
 * would otherwise leave for its own toolbar); the page behind does not scroll (iOS scrolls it
 * under a fixed layer otherwise). Focus going back is the opener's job: it knows which photo.
 */
export function useModal(first: RefObject<HTMLElement | null>): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return undefined;
    if (!dialog.open) dialog.showModal();
    first.current?.focus();

    const html = document.documentElement;
    const before = { overflow: html.style.overflow, paddingRight: html.style.paddingRight };
    // The scrollbar's width, kept as padding, so the page behind does not jump sideways.
    const scrollbar = window.innerWidth - html.clientWidth;
    html.style.overflow = 'hidden';
    if (scrollbar > 0) html.style.paddingRight = `${scrollbar}px`;

    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Tab') return;
      const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => !el.hasAttribute('disabled') && el.getClientRects().length > 0,
      );
      const firstItem = items[0];
      const lastItem = items[items.length - 1];
      if (!firstItem || !lastItem) return;
      const active = document.activeElement;
      const outside = !(active instanceof HTMLElement) || !items.includes(active);
      if (e.shiftKey && (active === firstItem || outside)) {
        e.preventDefault();
        lastItem.focus();
      } else if (!e.shiftKey && (active === lastItem || outside)) {
        e.preventDefault();
        firstItem.focus();
      }
    };
    dialog.addEventListener('keydown', onKeyDown);

    return () => {
      dialog.removeEventListener('keydown', onKeyDown);
      html.style.overflow = before.overflow;
      html.style.paddingRight = before.paddingRight;
      if (dialog.open) dialog.close();
    };
  }, [first]);

  return ref;
}
