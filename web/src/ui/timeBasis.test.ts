import { describe, expect, it } from 'vitest';
import { renderClock, serverTimeBasis, zoneOffset } from './timeBasis';

const WINTER = Date.parse('2026-01-15T12:34:56.789Z');
const SUMMER = Date.parse('2026-07-15T12:34:56.789Z');
const machine = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** A zone that is surely not this machine's. */
const elsewhere = machine === 'Asia/Tokyo' ? 'America/Detroit' : 'Asia/Tokyo';

describe('zoneOffset (signed like Date#getTimezoneOffset)', () => {
  it('follows daylight saving time and half-hour zones', () => {
    expect(zoneOffset(WINTER, 'America/Detroit')).toBe(300);
    expect(zoneOffset(SUMMER, 'America/Detroit')).toBe(240);
    expect(zoneOffset(WINTER, 'Asia/Kolkata')).toBe(-330);
    expect(zoneOffset(SUMMER, 'UTC')).toBe(0);
  });

  it("agrees with this machine's own offset for its own zone", () => {
    for (const t of [WINTER, SUMMER]) expect(zoneOffset(t, machine)).toBe(new Date(t).getTimezoneOffset());
  });
});

describe('the clock of a server render', () => {
  it("draws times in the campus's zone when one is given, and sends its offset", () => {
    const clock = renderClock(WINTER, elsewhere);
    expect(clock).toEqual({ now: WINTER, timeZone: elsewhere, offset: zoneOffset(WINTER, elsewhere) });
    expect(serverTimeBasis(clock)).toEqual({ now: WINTER, locale: 'en-US', timeZone: elsewhere });
  });

  it("names no zone when it is the server's own (formatters then skip Intl's zone handling)", () => {
    const clock = renderClock(SUMMER);
    expect(clock).toEqual({ now: SUMMER, timeZone: machine, offset: new Date(SUMMER).getTimezoneOffset() });
    expect(serverTimeBasis(clock)).toEqual({ now: SUMMER, locale: 'en-US' });
    expect(serverTimeBasis(renderClock(SUMMER, machine)).timeZone).toBeUndefined();
  });
});
