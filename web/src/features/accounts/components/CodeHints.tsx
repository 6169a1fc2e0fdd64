import { MailIcon } from '../../../ui/icons';

/** Spec hints for e-mailed codes: wait 1 to 2 minutes, check spam. */
export function CodeHints({ extra }: { extra?: string }) {
  return (
    <ul className="space-y-1.5 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-700">
      {extra && <li>{extra}</li>}
      <li className="flex items-start gap-2">
        <MailIcon size={16} className="mt-0.5 shrink-0 text-brand-700" />
        The code can take 1 to 2 minutes to arrive.
      </li>
      <li className="flex items-start gap-2">
        <MailIcon size={16} className="mt-0.5 shrink-0 text-brand-700" />
        Not there? Check your spam or junk folder.
      </li>
    </ul>
  );
}
