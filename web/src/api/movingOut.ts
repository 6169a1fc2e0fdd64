import type { MoveOutBody, MoveOutPlan } from '@campus/contract';
import { api, apiRequestWithResponse } from './client';

/** Moving out (features.md §H): the student's own plan. */
export const moveOutKey = ['users', 'me', 'move-out'] as const;

/** GET /users/me/move-out: the plan, or null (204) when none is set. */
export async function getMoveOutPlan(signal?: AbortSignal): Promise<MoveOutPlan | null> {
  const { data, response } = await apiRequestWithResponse<MoveOutPlan | null>('/users/me/move-out', {
    signal,
  });
  return response.status === 204 ? null : (data ?? null);
}

export function saveMoveOutPlan(body: MoveOutBody): Promise<MoveOutPlan> {
  return api.put<MoveOutPlan>('/users/me/move-out', body);
}

export async function clearMoveOutPlan(): Promise<void> {
  await api.delete<unknown>('/users/me/move-out');
}
