import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { REPORT_REASON_LABELS, type ModReportGroup, type ReportStatus } from '@campus/contract';
import { useCampuses } from '../../api/campus';
import { apiUrl, serverMessageOf } from '../../api/client';
import {
  dismissReport,
  fetchModReports,
  fetchSafetyMe,
  removeListing,
  restoreListing,
  safetyKeys,
  suspendUser,
  unsuspendUser,
} from '../../api/safety';
import { Button } from '../../ui/Button';
import { Card } from '../../ui/Card';
import { Dialog } from '../../ui/Dialog';
import { EmptyState } from '../../ui/EmptyState';
import { ShieldIcon } from '../../ui/icons';
import { PageContainer, PageHeader } from '../../ui/PageContainer';
import { TextField } from '../../ui/TextField';
import { toast } from '../../ui/toast';
import { useDocumentTitle } from '../../ui/useDocumentTitle';
import { cx } from '../../ui/cx';
import { useTimeBasis } from '../../ui/timeBasis';
import { Audit, when } from './ModerationAudit';

type Action =
  { kind: 'remove'; listingId: number; title: string } | { kind: 'suspend'; userId: number; name: string };

/** The reason (and days) a remove or suspend needs. */
function ActionDialog({ action, onClose }: { action: Action | null; onClose: () => void }) {
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [days, setDays] = useState('');
  const [error, setError] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: async () => {
      if (!action) return;
      if (action.kind === 'remove') await removeListing(action.listingId, reason);
      else await suspendUser(action.userId, reason, days === '' ? undefined : Number(days));
    },
    onSuccess: () => {
      toast.success(
        action?.kind === 'remove' ? 'Listing removed; the seller is e-mailed' : 'Student suspended',
      );
      void client.invalidateQueries({ queryKey: ['safety', 'mod'] });
      setReason('');
      setDays('');
      onClose();
    },
    onError: (e) => setError(serverMessageOf(e) ?? 'That did not work. Try again.'),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (reason.trim() === '') {
      setError('Give a reason (the student will see it)');
      return;
    }
    run.mutate();
  }
  const title =
    action?.kind === 'remove' ? `Remove “${action.title}”` : action ? `Suspend ${action.name}` : '';
  return (
    <Dialog
      open={action !== null}
      onClose={onClose}
      title={title}
      description={
        action?.kind === 'remove'
          ? 'Hidden for everyone. The seller is e-mailed this reason.'
          : 'Every session ends at once. Login will say until when and why.'
      }
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        <TextField
          label="Reason"
          value={reason}
          maxLength={500}
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          error={error}
        />
        {action?.kind === 'suspend' && (
          <TextField
            label="Days"
            hint="Leave empty to suspend until further notice."
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value.replace(/\D/g, ''))}
          />
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={run.isPending}>
            {action?.kind === 'remove' ? 'Remove listing' : 'Suspend'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

const STATE_LABEL: Record<string, string> = {
  VISIBLE: 'Visible',
  REPORTED: 'Hidden by reports',
  REMOVED: 'Removed',
  ACTIVE: 'Active',
  SUSPENDED: 'Suspended',
  SENT: 'Message',
  GONE: 'Gone',
};

function Group({
  group,
  onAction,
  showCampus,
}: {
  group: ModReportGroup;
  onAction: (a: Action) => void;
  /** Several campuses are served: say which one the item belongs to (operators see them all). */
  showCampus: boolean;
}) {
  const basis = useTimeBasis();
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: ['safety', 'mod'] });
  const fail = (e: unknown) => toast.error(serverMessageOf(e) ?? 'That did not work. Try again.');
  const dismiss = useMutation({
    mutationFn: () => dismissReport(group.reports[0]!.id),
    onSuccess: () => {
      toast.success('Reports dismissed');
      refresh();
    },
    onError: fail,
  });
  const restore = useMutation({
    mutationFn: () => restoreListing(group.targetId),
    onSuccess: () => {
      toast.success('Listing restored');
      refresh();
    },
    onError: fail,
  });
  const unsuspend = useMutation({
    mutationFn: () => unsuspendUser(group.targetId),
    onSuccess: () => {
      toast.success('Suspension ended');
      refresh();
    },
    onError: fail,
  });
  const { content } = group;
  const open = group.reports.some((r) => r.status === 'OPEN');
  const owner = content.owner;
  const headingId = `group-${group.targetType}-${group.targetId}`;
  return (
    <Card as="article" aria-labelledby={headingId} padding="sm" className="sm:p-5">
      <div className="flex gap-3">
        {content.imageUrl && (
          <img src={apiUrl(content.imageUrl)} alt="" className="h-16 w-16 shrink-0 rounded-lg object-cover" />
        )}
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">
            {group.targetType.toLowerCase()} #{group.targetId} ·{' '}
            <span
              className={cx(
                content.state === 'REPORTED' || content.state === 'REMOVED' ? 'text-red-700' : '',
              )}
            >
              {STATE_LABEL[content.state] ?? content.state}
            </span>
            {showCampus && <span> · {group.campus.name}</span>}
          </p>
          <h3 id={headingId} className="mt-0.5 truncate font-semibold text-slate-900">
            {content.title}
          </h3>
          {content.body && (
            <p className="mt-1 line-clamp-3 text-sm whitespace-pre-wrap text-slate-700">{content.body}</p>
          )}
          {owner && (
            <p className="mt-1 text-sm text-slate-600">
              By {owner.firstName} {owner.lastName} (#{owner.id})
            </p>
          )}
        </div>
      </div>
      <ul className="mt-3 space-y-1.5 border-t border-slate-100 pt-3 text-sm">
        {group.reports.map((r) => (
          <li key={r.id}>
            <span className="font-semibold text-slate-900">{REPORT_REASON_LABELS[r.reason]}</span>
            <span className="text-slate-600">
              {' '}
              — {r.reporter.firstName} {r.reporter.lastName}, {when(r.createdAt, basis)}
              {r.outcome ? ` · ${r.outcome.toLowerCase()}` : ''}
            </span>
            {r.details && <p className="text-slate-700">“{r.details}”</p>}
          </li>
        ))}
      </ul>
      {!content.gone && (
        <div className="mt-4 flex flex-wrap gap-2">
          {open && (
            <Button
              size="sm"
              variant="secondary"
              loading={dismiss.isPending}
              onClick={() => dismiss.mutate()}
            >
              Dismiss
            </Button>
          )}
          {group.targetType === 'LISTING' && content.state !== 'REMOVED' && (
            <Button
              size="sm"
              variant="danger-outline"
              onClick={() => onAction({ kind: 'remove', listingId: group.targetId, title: content.title })}
            >
              Remove listing
            </Button>
          )}
          {group.targetType === 'LISTING' && content.state !== 'VISIBLE' && (
            <Button
              size="sm"
              variant="secondary"
              loading={restore.isPending}
              onClick={() => restore.mutate()}
            >
              Restore listing
            </Button>
          )}
          {owner && content.state !== 'SUSPENDED' && (
            <Button
              size="sm"
              variant="danger-outline"
              onClick={() =>
                onAction({ kind: 'suspend', userId: owner.id, name: `${owner.firstName} ${owner.lastName}` })
              }
            >
              Suspend {owner.firstName}
            </Button>
          )}
          {group.targetType === 'USER' && content.state === 'SUSPENDED' && (
            <Button
              size="sm"
              variant="secondary"
              loading={unsuspend.isPending}
              onClick={() => unsuspend.mutate()}
            >
              Unsuspend
            </Button>
          )}
        </div>
      )}
    </Card>
  );
}

function Queue({ status }: { status: ReportStatus }) {
  const [action, setAction] = useState<Action | null>(null);
  const showCampus = (useCampuses().data?.length ?? 0) > 1;
  const query = useQuery({ queryKey: safetyKeys.reports(status), queryFn: () => fetchModReports(status) });
  if (query.isPending) return <p className="text-slate-600">Loading reports…</p>;
  if (query.isError)
    return (
      <p role="alert" className="text-red-700">
        Could not load the reports.
      </p>
    );
  if (query.data.items.length === 0) {
    return (
      <EmptyState
        icon={<ShieldIcon />}
        title={status === 'OPEN' ? 'Nothing to review' : 'No decided reports yet'}
        description={
          status === 'OPEN' ? 'New reports show up here, grouped by what was reported.' : undefined
        }
      />
    );
  }
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-2">
        {query.data.items.map((g) => (
          <Group
            key={`${g.targetType}-${g.targetId}`}
            group={g}
            onAction={setAction}
            showCampus={showCampus}
          />
        ))}
      </div>
      <ActionDialog action={action} onClose={() => setAction(null)} />
    </>
  );
}

const TABS = [
  { id: 'OPEN', label: 'Open reports' },
  { id: 'DONE', label: 'Decided' },
  { id: 'AUDIT', label: 'Audit log' },
] as const;

/** /moderation: the queue grouped by target, one-tap decisions, and the audit log. */
export default function ModerationPage() {
  useDocumentTitle('Moderation');
  const me = useQuery({ queryKey: safetyKeys.me, queryFn: fetchSafetyMe, staleTime: 60_000 });
  const [tab, setTab] = useState<(typeof TABS)[number]['id']>('OPEN');
  if (me.isPending) return <PageContainer>Loading…</PageContainer>;
  if (!me.data?.moderator) {
    return (
      <PageContainer width="default">
        <EmptyState
          icon={<ShieldIcon />}
          headingLevel={1}
          title="Moderators only"
          description="This page is for the students who moderate Campus Market."
        />
      </PageContainer>
    );
  }
  return (
    <PageContainer>
      <PageHeader
        title="Moderation"
        description="Reports grouped by what was reported. Every action is logged."
      />
      <div
        role="tablist"
        aria-label="Moderation"
        className="mb-5 flex gap-1 rounded-xl bg-slate-100 p-1 sm:w-fit"
      >
        {TABS.map((t) => (
          <button
            key={t.id}
            role="tab"
            type="button"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls="mod-panel"
            onClick={() => setTab(t.id)}
            className={cx(
              'flex-1 rounded-lg px-4 py-2 text-sm font-semibold sm:flex-none',
              tab === t.id ? 'bg-white text-slate-900 shadow-xs' : 'text-slate-700 hover:text-slate-900',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      <section id="mod-panel" role="tabpanel" aria-labelledby={`tab-${tab}`}>
        {tab === 'AUDIT' ? <Audit /> : <Queue status={tab} />}
      </section>
    </PageContainer>
  );
}
