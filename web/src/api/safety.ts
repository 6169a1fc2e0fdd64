import type {
  AuditEntry,
  BlockedUser,
  ModReportGroup,
  Report,
  ReportReason,
  ReportStatus,
  ReportTargetType,
} from '@campus/contract';
import { api, apiRequest, apiRequestWithResponse } from './client';
import { parseNextLink } from './listings';

/** Safety calls (features.md §C): reports, blocks, moderation, own data. */

export const safetyKeys = {
  me: ['safety', 'me'] as const,
  blocked: ['safety', 'blocked'] as const,
  reports: (status: ReportStatus) => ['safety', 'mod', 'reports', status] as const,
  audit: ['safety', 'mod', 'audit'] as const,
};

export const fetchSafetyMe = () => api.get<{ moderator: boolean }>('/users/me/safety');

export const createReport = (body: {
  targetType: ReportTargetType;
  targetId: number;
  reason: ReportReason;
  details?: string;
}) => api.post<Report>('/reports', body);

export const blockUser = (id: number) => api.put<{ id: number; blocked: boolean }>(`/users/${id}/block`);
export const unblockUser = (id: number) => api.delete<{ id: number; blocked: boolean }>(`/users/${id}/block`);
export const fetchBlocked = () => api.get<BlockedUser[]>('/users/blocked');

export interface Paged<T> {
  items: T[];
  next: string | null;
}

async function paged<T>(path: string): Promise<Paged<T>> {
  const { data, response } = await apiRequestWithResponse<T[]>(path, { method: 'GET' });
  return { items: data, next: parseNextLink(response.headers.get('link')) };
}

export const fetchModReports = (status: ReportStatus, next?: string | null) =>
  paged<ModReportGroup>(next ?? `/mod/reports?status=${status}`);
export const fetchAudit = (next?: string | null) => paged<AuditEntry>(next ?? '/mod/audit');

export const dismissReport = (id: number, reason?: string) =>
  api.post<{ message: string }>(`/mod/reports/${id}/dismiss`, { reason });
export const removeListing = (id: number, reason: string) =>
  api.post<{ message: string }>(`/mod/listings/${id}/remove`, { reason });
export const restoreListing = (id: number, reason?: string) =>
  api.post<{ message: string }>(`/mod/listings/${id}/restore`, { reason });
export const suspendUser = (id: number, reason: string, days?: number) =>
  api.post<{ message: string }>(`/mod/users/${id}/suspend`, { reason, days });
export const unsuspendUser = (id: number, reason?: string) =>
  api.post<{ message: string }>(`/mod/users/${id}/unsuspend`, { reason });

/** The export as a Blob (the server sends it as an attachment). */
export async function downloadMyData(): Promise<Blob> {
  const data = await api.get<unknown>('/users/me/export');
  return new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
}

export const deleteMyAccount = (password: string) =>
  apiRequest<{ message: string }>('/users/me', { method: 'DELETE', body: { password } });
