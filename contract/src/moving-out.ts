import { z } from './zod.js';
import {
  HOLD_MESSAGES,
  isCalendarDay,
  MOVE_OUT_LIMITS,
  MOVE_OUT_MESSAGES,
  type MoveOutPlan,
  type MoveOutSeason,
} from './moving-out-rules.js';

const daySchema = (invalid: string) =>
  z.string({ error: invalid }).trim().refine(isCalendarDay, { message: invalid });

/** PUT /users/me/move-out. The date's range is checked against the clock by the server. */
export const moveOutBodySchema = z.object(
  {
    date: daySchema(MOVE_OUT_MESSAGES.dateInvalid),
    autoDrop: z.boolean({ error: MOVE_OUT_MESSAGES.bodyInvalid }).optional(),
    floorPercent: z
      .number({ error: MOVE_OUT_MESSAGES.floorInvalid })
      .int(MOVE_OUT_MESSAGES.floorInvalid)
      .min(MOVE_OUT_LIMITS.floorPercentMin, MOVE_OUT_MESSAGES.floorInvalid)
      .max(MOVE_OUT_LIMITS.floorPercentMax, MOVE_OUT_MESSAGES.floorInvalid)
      .optional(),
    thenFree: z.boolean({ error: MOVE_OUT_MESSAGES.bodyInvalid }).optional(),
  },
  { error: MOVE_OUT_MESSAGES.dateRequired },
);
export type MoveOutBody = z.input<typeof moveOutBodySchema>;

/** The optional hold of an offer body; its range is checked against the clock by the server. */
export const holdUntilSchema = daySchema(HOLD_MESSAGES.holdInvalid).nullable().optional();

export const moveOutPlanResponse = z.object({
  date: z.string().describe('YYYY-MM-DD, in the campus time zone'),
  autoDrop: z.boolean(),
  floorPercent: z.number().int(),
  thenFree: z.boolean(),
}) satisfies z.ZodType<MoveOutPlan>;

export const moveOutSeasonSchema = z
  .object({
    from: z.string().refine(isCalendarDay, 'must be a day like 2027-04-20'),
    to: z.string().refine(isCalendarDay, 'must be a day like 2027-05-15'),
  })
  .refine((s) => s.from <= s.to, { message: 'from must not be after to' });

export const moveOutSeasonResponse = z
  .object({ from: z.string(), to: z.string() })
  .nullable()
  .describe('YYYY-MM-DD days; null when the campus set none') satisfies z.ZodType<MoveOutSeason | null>;
