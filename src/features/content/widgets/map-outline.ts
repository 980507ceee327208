/**
 * The map widget's picture: Finland and Sweden drawn as coarse outlines (latitude, longitude
 * points, a few dozen each: a sketch of where the plants are, not a survey map), projected so the
 * map keeps its proportions at these latitudes, with a numbered marker per region that has a
 * place. Shared by the server render and the island.
 */

type LatLon = readonly [lat: number, lon: number];

const FINLAND: readonly LatLon[] = [
  [59.85, 23.0],
  [60.45, 22.1],
  [61.5, 21.5],
  [62.6, 21.2],
  [63.8, 23.0],
  [65.0, 25.4],
  [65.85, 24.15],
  [66.8, 23.9],
  [67.9, 23.5],
  [68.4, 22.3],
  [69.06, 20.55],
  [69.3, 21.3],
  [68.8, 23.9],
  [68.65, 25.7],
  [69.9, 27.0],
  [70.09, 27.9],
  [69.1, 28.9],
  [68.2, 28.7],
  [67.0, 29.6],
  [65.5, 29.7],
  [64.1, 29.9],
  [63.0, 31.2],
  [62.0, 31.5],
  [61.1, 29.7],
  [60.6, 27.8],
  [60.45, 26.9],
  [60.15, 24.95],
  [60.0, 23.5],
];

const SWEDEN: readonly LatLon[] = [
  [55.35, 13.1],
  [55.55, 14.3],
  [56.15, 15.6],
  [57.2, 16.5],
  [58.6, 16.8],
  [59.3, 18.3],
  [60.6, 17.9],
  [62.6, 17.9],
  [63.8, 20.3],
  [65.6, 22.1],
  [65.85, 24.15],
  [66.8, 23.9],
  [67.9, 23.5],
  [68.4, 22.3],
  [69.06, 20.55],
  [68.4, 18.1],
  [67.0, 16.2],
  [65.5, 14.5],
  [64.0, 12.7],
  [63.0, 12.1],
  [61.5, 12.5],
  [60.0, 12.5],
  [59.0, 11.4],
  [58.3, 11.4],
  [57.7, 11.9],
  [56.7, 12.7],
  [56.1, 12.6],
  [55.6, 12.9],
];

/** The drawn area: 54.8–70.5° N, 10.5–32° E. */
const BOUNDS = { north: 70.5, south: 54.8, west: 10.5, east: 32 } as const;
/** Longitude degrees shrink with latitude: scaled at the middle of the area. */
const LON_SCALE = Math.cos((((BOUNDS.north + BOUNDS.south) / 2) * Math.PI) / 180);
const UNIT = 20;

export const MAP_VIEW = {
  width: Math.round((BOUNDS.east - BOUNDS.west) * LON_SCALE * UNIT),
  height: Math.round((BOUNDS.north - BOUNDS.south) * UNIT),
} as const;

/** A place on the map's picture, in its view box. */
export function project(lat: number, lon: number): { x: number; y: number } {
  return {
    x: Math.round((lon - BOUNDS.west) * LON_SCALE * UNIT * 10) / 10,
    y: Math.round((BOUNDS.north - lat) * UNIT * 10) / 10,
  };
}

const path = (points: readonly LatLon[]) =>
  `${points
    .map(([lat, lon], i) => {
      const { x, y } = project(lat, lon);
      return `${i === 0 ? 'M' : 'L'}${x} ${y}`;
    })
    .join(' ')} Z`;

/** The countries' outlines as SVG paths. */
export const MAP_OUTLINES = [path(FINLAND), path(SWEDEN)] as const;

/** Whether a place lies within the drawn area. */
export function onMap(lat: number, lon: number): boolean {
  return lat >= BOUNDS.south && lat <= BOUNDS.north && lon >= BOUNDS.west && lon <= BOUNDS.east;
}
