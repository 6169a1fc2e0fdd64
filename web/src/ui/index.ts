export {
  Button,
  ButtonLink,
  buttonClasses,
  type ButtonProps,
  type ButtonVariant,
  type ButtonSize,
} from './Button';
export { TextField, inputClasses, type TextFieldProps } from './TextField';
export { PasswordField } from './PasswordField';
export { Card } from './Card';
export { Spinner, PageSpinner } from './Spinner';
export { EmptyState } from './EmptyState';
export { ErrorState } from './ErrorState';
export { InlineConfirm } from './InlineConfirm';
export { PageContainer, PageHeader } from './PageContainer';
export { toast, type ToastId, type ToastOptions } from './toast';
export { Toaster } from './Toaster';
export { TopBar } from './TopBar';
export { PublicHeader } from './PublicHeader';
export { SearchBox } from './SearchBox';
export { UnreadCountContext, useUnreadCount } from './unread';
export { Logo, LogoMark } from './Logo';
export { CategoryTile } from './CategoryTile';
export { useDocumentTitle } from './useDocumentTitle';
export { useCooldown } from './useCooldown';
export { cx } from './cx';
export * from './icons';
