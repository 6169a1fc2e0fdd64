import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@campus/contract';
import { useCampuses } from '../../api/campus';
import { fetchAudit, safetyKeys } from '../../api/safety';
import { useTimeBasis, zoneOption, type TimeBasis } from '../../ui/timeBasis';

/** A moderation time, in the campus's zone as the page draws every time (ui/timeBasis). */
export const when = (iso: string, basis: TimeBasis) =>
  new Date(iso).toLocaleString(basis.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...zoneOption(basis),
  });

const ACTION_LABEL: Record<AuditEntry['action'], string> = {
  DISMISS: 'Dismissed reports on',
  REMOVE_LISTING: 'Removed',
  RESTORE_LISTING: 'Restored',
  SUSPEND: 'Suspended',
  UNSUSPEND: 'Unsuspended',
};

/** The audit log: every moderator action, newest first, with its campus when several are served. */
export function Audit() {
  const basis = useTimeBasis();
  const query = useQuery({ queryKey: safetyKeys.audit, queryFn: () => fetchAudit() });
  const showCampus = (useCampuses().data?.length ?? 0) > 1;
  if (query.isPending) return <p className="text-slate-600">Loading the audit log…</p>;
  if (query.isError)
    return (
      <p role="alert" className="text-red-700">
        Could not load the audit log.
      </p>
    );
  if (query.data.items.length === 0) return <p className="text-slate-600">No moderator actions yet.</p>;
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white">
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">Every moderator action, newest first</caption>
        <thead className="bg-slate-50 text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-2.5 font-semibold">
              When
            </th>
            <th scope="col" className="px-4 py-2.5 font-semibold">
              Who
            </th>
            <th scope="col" className="px-4 py-2.5 font-semibold">
              What
            </th>
            <th scope="col" className="px-4 py-2.5 font-semibold">
              Why
            </th>
            {showCampus && (
              <th scope="col" className="px-4 py-2.5 font-semibold">
                Campus
              </th>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {query.data.items.map((e: AuditEntry) => (
            <tr key={e.id}>
              <td className="px-4 py-2.5 whitespace-nowrap text-slate-700">{when(e.createdAt, basis)}</td>
              <td className="px-4 py-2.5 text-slate-900">
                {e.moderator.firstName} {e.moderator.lastName}
              </td>
              <td className="px-4 py-2.5 text-slate-900">
                {ACTION_LABEL[e.action]} {e.targetType.toLowerCase()} #{e.targetId}
              </td>
              <td className="px-4 py-2.5 text-slate-700">{e.reason || '—'}</td>
              {showCampus && <td className="px-4 py-2.5 text-slate-700">{e.campus.name}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
