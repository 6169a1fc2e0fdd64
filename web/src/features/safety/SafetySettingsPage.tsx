import { useState, type FormEvent } from 'react';
import { serverMessageOf } from '../../api/client';
import { deleteMyAccount, downloadMyData } from '../../api/safety';
import { logout } from '../../session';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { PageContainer, PageHeader } from '../../ui/PageContainer';
import { PasswordField } from '../../ui/PasswordField';
import { toast } from '../../ui/toast';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { useBlockActions, useBlocked } from './BlockButton';

function BlockedList() {
  const blocked = useBlocked();
  const { unblock } = useBlockActions();
  return (
    <Card as="section" aria-labelledby="blocked-heading">
      <h2 id="blocked-heading" className="text-lg font-semibold text-slate-900">
        Blocked students
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        You and they cannot message each other, and their listings are hidden from you.
      </p>
      {blocked.isPending ? (
        <p className="mt-4 text-sm text-slate-600">Loading…</p>
      ) : blocked.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Could not load the list.
        </p>
      ) : blocked.data.length === 0 ? (
        <p className="mt-4 text-sm text-slate-600">You have not blocked anyone.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-200">
          {blocked.data.map((b) => (
            <li key={b.id} className="flex items-center justify-between gap-3 py-3">
              <span className="font-medium text-slate-900">
                {b.firstName} {b.lastName}
              </span>
              <Button
                variant="secondary"
                size="sm"
                aria-label={`Unblock ${b.firstName} ${b.lastName}`}
                loading={unblock.isPending && unblock.variables === b.id}
                onClick={() =>
                  unblock.mutate(b.id, {
                    onSuccess: () => toast.success(`${b.firstName} is unblocked`),
                    onError: (e) => toast.error(serverMessageOf(e) ?? 'Could not unblock. Try again.'),
                  })
                }
              >
                Unblock
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function DownloadData() {
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      const blob = await downloadMyData();
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = 'campus-market-data.json';
      a.click();
      URL.revokeObjectURL(url);
    } catch (e) {
      toast.error(serverMessageOf(e) ?? 'The download failed. Try again.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card as="section" aria-labelledby="data-heading">
      <h2 id="data-heading" className="text-lg font-semibold text-slate-900">
        Your data
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Everything Campus Market keeps about you — account, listings, saves, searches, wanted posts,
        conversations, reports and blocks — as one JSON file.
      </p>
      <Button className="mt-4" variant="secondary" loading={busy} onClick={() => void download()}>
        Download my data
      </Button>
    </Card>
  );
}

function DeleteAccount() {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      await deleteMyAccount(password);
      toast.success('Your account is deleted. Goodbye!');
      logout();
    } catch (err) {
      setError(serverMessageOf(err) ?? 'Your account could not be deleted. Try again.');
      setBusy(false);
    }
  }
  return (
    <Card as="section" aria-labelledby="delete-heading" className="border-red-200">
      <h2 id="delete-heading" className="text-lg font-semibold text-red-800">
        Delete my account
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Your listings, photos, saves, searches and wanted posts are deleted. Your messages stay in the other
        students&apos; conversations, shown from &quot;Deleted student&quot;. This cannot be undone.
      </p>
      {open ? (
        <form onSubmit={(e) => void submit(e)} className="mt-4 max-w-sm space-y-3" noValidate>
          <PasswordField
            label="Your password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setError(null);
            }}
            error={error}
          />
          <div className="flex gap-2">
            <Button type="submit" variant="danger" loading={busy} disabled={password === ''}>
              Delete my account
            </Button>
            <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button className="mt-4" variant="danger-outline" onClick={() => setOpen(true)}>
          Delete my account…
        </Button>
      )}
    </Card>
  );
}

/** /settings/safety: blocked students, own-data download, account deletion (features.md §C). */
export default function SafetySettingsPage() {
  useDocumentTitle('Safety & privacy');
  return (
    <PageContainer width="default">
      <PageHeader title="Safety & privacy" description="Who can reach you, and the data you keep here." />
      <div className="grid max-w-3xl gap-5">
        <BlockedList />
        <DownloadData />
        <DeleteAccount />
      </div>
    </PageContainer>
  );
}
