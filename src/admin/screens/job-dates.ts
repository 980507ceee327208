/** A job listing's last day to apply, as the editor types it and as the API keeps it. */

const ZONE = 'Europe/Helsinki';

/** The day (`2026-03-02`) an instant falls on in Finland. */
export function finnishDay(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Intl.DateTimeFormat('sv-SE', { timeZone: ZONE }).format(at);
}

/** The last second of a day in Finland as an instant (ISO), whatever the season's offset. */
export function endOfFinnishDay(day: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59);
  const offset = (at: number) => {
    const name =
      new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'longOffset' })
        .formatToParts(new Date(at))
        .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT+00:00';
    const [, sign, h, min] = /GMT([+-])(\d{2}):(\d{2})/.exec(name) ?? ['', '+', '00', '00'];
    return (sign === '-' ? -1 : 1) * (Number(h) * 60 + Number(min)) * 60_000;
  };
  return new Date(wall - offset(wall - offset(wall))).toISOString();
}
