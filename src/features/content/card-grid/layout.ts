/**
 * The card grid's arithmetic (spec navigation-and-search §2 and §9), apart from React so it can be
 * tested on its own. The breakpoints are those of `card-grid.module.css`; keep the two in step.
 */

/** Rows a grid shows before its expand button is used. */
export const INITIAL_ROWS = 2;

export type ColumnSetting = 2 | 3 | 4;

/** Screen tiers of §9 that change the grid: xs from 280 (and below), sm 376, md 768, lg 1024. */
export const tiers = [
  { name: 'xs', from: 0, columns: 1 },
  { name: 'sm', from: 376, columns: 2 },
  { name: 'md', from: 768, columns: 3 },
  { name: 'lg', from: 1024, columns: 4 },
] as const;
export type Tier = (typeof tiers)[number]['name'];

/** Columns by screen size alone: large 4, medium 3, small 2, extra small 1. */
export function autoColumns(width: number): number {
  let columns = 1;
  for (const tier of tiers) if (width >= tier.from) columns = tier.columns;
  return columns;
}

/**
 * Columns at a viewport width. A block's setting is the most it shows; a narrower screen still
 * steps down, so four columns never squeeze onto a phone.
 */
export function columnsAt(width: number, setting?: ColumnSetting): number {
  const auto = autoColumns(width);
  return setting ? Math.min(setting, auto) : auto;
}

/** Columns of each tier for a setting (the server knows no width, so it writes CSS for each). */
export function columnsByTier(setting?: ColumnSetting): Record<Tier, number> {
  return Object.fromEntries(tiers.map((t) => [t.name, columnsAt(t.from, setting)])) as Record<
    Tier,
    number
  >;
}

/** Cards shown with `rows` rows of `columns`. */
export function visibleCount(rows: number, columns: number, total: number): number {
  return Math.max(0, Math.min(total, rows * Math.max(1, columns)));
}

/** Rows that `total` cards fill. */
export function rowCount(total: number, columns: number): number {
  return Math.ceil(Math.max(0, total) / Math.max(1, columns));
}

/** Whether the expand button has anything left to reveal. */
export function hasMoreRows(rows: number, columns: number, total: number): boolean {
  return visibleCount(rows, columns, total) < total;
}

/**
 * Columns of a laid-out grid from its computed `grid-template-columns` ('290px 290px 290px'), or
 * undefined when the grid has no layout (not displayed, or no CSS engine).
 */
export function columnsOfTemplate(template: string | undefined | null): number | undefined {
  if (!template || template === 'none') return undefined;
  const tracks = template.trim().split(/\s+(?![^(]*\))/);
  return tracks.length > 0 && tracks.every((t) => /px$/.test(t)) ? tracks.length : undefined;
}
