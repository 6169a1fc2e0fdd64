import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { isAcceptedPhoto, LIMITS, MESSAGES, PHOTO_ACCEPT, PHOTO_MESSAGES } from '@campus/contract';
import { ApiError, serverMessageOf } from '../../../api/client';
import { uploadChatImage } from '../../../api/chat';
import { Button } from '../../../ui/Button';
import { cx } from '../../../ui/cx';
import { CloseIcon, PaperclipIcon, SendIcon } from '../../../ui/icons';
import { toast } from '../../../ui/toast';
import { canOpenPhoto, preparePhoto } from '../../listings/compressPhoto';

/** The counter shows from this many characters before the limit. */
const COUNTER_FROM = LIMITS.chatContentMax - 200;
const TEXTAREA_MAX_PX = 160;

export interface ComposerProps {
  /** Sends a message (text, photo or both); the caller queues it. */
  onSend: (message: { content: string; url: string | null }) => void;
  /** Why nothing can be sent here, if so (the composer is then disabled). */
  disabledReason?: string | null;
  /** A line above the input (e.g. which listing the next message is about). */
  notice?: ReactNode;
}

/**
 * Spec §2 input: 'Type something', Enter sends, Shift+Enter is a new line, blank text is not sent;
 * the paperclip opens a panel with a photo picker (JPEG, PNG, WebP, HEIC) and Upload.
 */
export function Composer({ onSend, disabledReason, notice }: ComposerProps) {
  const [text, setText] = useState('');
  const [attachOpen, setAttachOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const attachButton = useRef<HTMLButtonElement>(null);
  const ids = { text: useId(), panel: useId(), file: useId(), counter: useId(), hint: useId() };
  const disabled = Boolean(disabledReason);
  const blank = text.trim() === '';

  // Grow with the text up to a few lines, then scroll.
  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, TEXTAREA_MAX_PX)}px`;
  }, [text]);

  // the panel opens above the input, so focus goes into it (the photo picker).
  useEffect(() => {
    if (attachOpen) fileInput.current?.focus();
  }, [attachOpen]);

  const send = () => {
    if (disabled || blank) return;
    onSend({ content: text.trim(), url: null });
    setText('');
    textarea.current?.focus();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const closePanel = (returnFocus = false) => {
    setAttachOpen(false);
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
    if (returnFocus) attachButton.current?.focus();
  };

  const upload = async () => {
    if (!file) {
      toast.error(MESSAGES.noFileUploaded);
      return;
    }
    if (!isAcceptedPhoto(file)) {
      toast.error(PHOTO_MESSAGES.typeNotAccepted);
      return;
    }
    if (!(await canOpenPhoto(file))) {
      toast.error(PHOTO_MESSAGES.convertFailed(file.name));
      return;
    }
    setUploading(true);
    const id = toast.loading(MESSAGES.uploadingImage);
    try {
      // Every photo goes up as a JPEG (spec §9 compression); one that cannot be converted throws
      // a message saying what to choose instead.
      const url = await uploadChatImage(await preparePhoto(file));
      toast.success(MESSAGES.imageUploaded, { id });
      onSend({ content: text.trim(), url });
      setText('');
      closePanel();
      textarea.current?.focus();
    } catch (error) {
      const reason = serverMessageOf(error) ?? (error instanceof ApiError ? null : (error as Error).message);
      toast.error(reason || 'The photo could not be uploaded. Please try again.', { id });
    } finally {
      setUploading(false);
    }
  };

  const length = text.length;
  const showCounter = length >= COUNTER_FROM;

  return (
    <form
      onSubmit={onSubmit}
      className="shrink-0 border-t border-slate-200 bg-white px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] sm:px-5"
    >
      {attachOpen && (
        <div
          id={ids.panel}
          role="group"
          aria-label="Attach a photo"
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              closePanel(true);
            }
          }}
          className="mb-2 flex flex-wrap items-center gap-2 rounded-xl border border-slate-200 bg-slate-50 p-2.5"
        >
          <label htmlFor={ids.file} className="sr-only">
            Photo (JPG, PNG, WebP or HEIC)
          </label>
          <input
            ref={fileInput}
            id={ids.file}
            type="file"
            accept={PHOTO_ACCEPT}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            className="min-w-0 flex-1 text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-white file:px-3 file:py-2 file:text-sm file:font-semibold file:text-brand-800 file:shadow-xs file:ring-1 file:ring-slate-300 hover:file:bg-slate-100"
          />
          <div className="flex gap-2">
            <Button size="sm" onClick={() => void upload()} loading={uploading}>
              Upload
            </Button>
            <Button
              size="sm"
              variant="ghost"
              onClick={() => closePanel(true)}
              aria-label="Close the photo panel"
            >
              <CloseIcon size={18} />
            </Button>
          </div>
        </div>
      )}
      {notice}
      <div className="flex items-end gap-2">
        <button
          ref={attachButton}
          type="button"
          aria-label="Attach a photo"
          aria-expanded={attachOpen}
          aria-controls={attachOpen ? ids.panel : undefined}
          disabled={disabled}
          onClick={() => (attachOpen ? closePanel() : setAttachOpen(true))}
          className={cx(
            'inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-xl text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 disabled:opacity-50',
            attachOpen && 'bg-brand-50 text-brand-800',
          )}
        >
          <PaperclipIcon size={22} />
        </button>
        <div className="relative min-w-0 flex-1">
          <label htmlFor={ids.text} className="sr-only">
            Message
          </label>
          <textarea
            ref={textarea}
            id={ids.text}
            rows={1}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            // An Enter pressed before the app has taken the page over is kept and sent (ssr/earlyInput.ts).
            data-enter-sends=""
            placeholder="Type something"
            maxLength={LIMITS.chatContentMax}
            disabled={disabled}
            aria-describedby={cx(ids.hint, showCounter && ids.counter) || undefined}
            enterKeyHint="send"
            className="block max-h-40 min-h-11 w-full resize-none rounded-xl border border-slate-300 bg-white px-3.5 py-2.5 text-base leading-6 text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:ring-4 focus:ring-brand-100 focus:outline-none disabled:bg-slate-100 sm:text-sm"
          />
          <span id={ids.hint} className="sr-only">
            Enter sends, Shift+Enter adds a new line.
          </span>
        </div>
        <button
          type="submit"
          aria-label="Send"
          disabled={disabled || blank}
          className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-brand-700 text-white shadow-sm transition-colors hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-300 disabled:text-slate-500 disabled:shadow-none"
        >
          <SendIcon size={20} />
        </button>
      </div>
      {(showCounter || disabledReason) && (
        <div className="mt-1 flex justify-between gap-3 px-1 text-xs">
          <span className="text-slate-600">{disabledReason}</span>
          {showCounter && (
            <span
              id={ids.counter}
              aria-live="polite"
              className={cx(
                'tabular-nums',
                length >= LIMITS.chatContentMax ? 'font-semibold text-red-700' : 'text-slate-500',
              )}
            >
              {length}/{LIMITS.chatContentMax}
            </span>
          )}
        </div>
      )}
    </form>
  );
}
