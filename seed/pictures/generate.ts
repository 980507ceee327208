import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  bowl,
  cutlery,
  dish,
  drumstick,
  landscape,
  leaf,
  meatball,
  napkin,
  type Palette,
  palettes,
  plate,
  portrait,
  sausage,
  scatteredLeaves,
  shadow,
  steam,
  tableTop,
} from './draw.ts';
import { darken, escapeXml, lighten, n, Random, wrapText } from './svg.ts';

/**
 * Demo pictures drawn from a seed: the seed decides palette, dish and layout, so the same seed
 * always gives the same bytes and the demo content needs no downloads.
 */
export const imageKinds = ['product', 'recipe', 'news', 'hero', 'card', 'person'] as const;
export type ImageKind = (typeof imageKinds)[number];

export const imageSizes: Record<ImageKind, { width: number; height: number }> = {
  hero: { width: 1920, height: 800 },
  product: { width: 1200, height: 1200 },
  recipe: { width: 1600, height: 1200 },
  news: { width: 1600, height: 900 },
  card: { width: 1200, height: 900 },
  person: { width: 900, height: 1200 },
};

export interface ImageSpec {
  kind: ImageKind;
  seed: string;
  /** Printed on product packaging; other kinds ignore it. */
  title?: string;
}

export interface GeneratedImage {
  data: Buffer;
  width: number;
  height: number;
  mime: 'image/jpeg';
  /** The point to keep in crops, 0..1 from the left and top. */
  focus: { x: number; y: number };
}

interface Drawing {
  svg: string;
  focus: { x: number; y: number };
}

const FONT = "DejaVu Sans, 'Liberation Sans', sans-serif";

/** Draws the picture as SVG and rasterises it to a JPEG. */
export async function generateImage(spec: ImageSpec): Promise<GeneratedImage> {
  const { width, height } = imageSizes[spec.kind];
  const drawing = drawImage(spec);
  const data = await sharp(Buffer.from(drawing.svg))
    .jpeg({ quality: 82, chromaSubsampling: '4:2:0' })
    .toBuffer();
  return { data, width, height, mime: 'image/jpeg', focus: drawing.focus };
}

/** The SVG of a picture (exported for tests and for looking at a design without sharp). */
export function drawImage(spec: ImageSpec): Drawing {
  const { width: w, height: h } = imageSizes[spec.kind];
  const r = new Random(seedOf(spec.kind, spec.seed));
  const p = r.pick(palettes);
  const body = scenes[spec.kind](r, w, h, p, spec.title ?? '');
  return {
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body.svg}</svg>`,
    focus: { x: round3(body.focus.x / w), y: round3(body.focus.y / h) },
  };
}

function seedOf(kind: string, seed: string): number {
  return createHash('sha256').update(`${kind}\0${seed}`).digest().readUInt32LE(0);
}

function round3(value: number): number {
  return Math.min(1, Math.max(0, Math.round(value * 1000) / 1000));
}

type Scene = (r: Random, w: number, h: number, p: Palette, title: string) => Drawing;

const scenes: Record<ImageKind, Scene> = {
  recipe(r, w, h, p) {
    let svg = tableTop(r, w, h, p);
    const radius = h * r.range(0.3, 0.36);
    const cx = w * r.range(0.46, 0.56);
    const cy = h * r.range(0.47, 0.53);
    svg += napkin(r, cx - radius * 1.55, cy - radius * 0.5, radius * 0.9, p);
    svg += cutlery(cx - radius * 1.45, cy - radius * 0.45, radius * 1.2);
    if (r.chance(0.5)) {
      svg += bowl(r, w * 0.85, h * 0.2, radius * 0.42, p, p.sauce);
    } else {
      svg += bowl(r, w * 0.86, h * 0.78, radius * 0.38, p, lighten(p.greens[0], 0.2));
    }
    svg += plate(cx, cy, radius, p);
    svg += dish(r, cx, cy, radius, p);
    svg += scatteredLeaves(r, 5, w, h, h * 0.05, p, { x: cx, y: cy, r: radius * 1.2 });
    svg += steam(cx, cy - radius * 0.25, radius * 0.55);
    return { svg, focus: { x: cx, y: cy } };
  },

  card(r, w, h, p) {
    let svg = tableTop(r, w, h, p);
    const radius = h * r.range(0.38, 0.44);
    const cx = w * r.range(0.45, 0.55);
    const cy = h * 0.5;
    if (r.chance(0.35)) {
      svg += bowl(r, cx, cy, radius, p, p.sauce);
      svg += steam(cx, cy - radius * 0.4, radius * 0.7);
    } else {
      svg += plate(cx, cy, radius, p);
      svg += dish(r, cx, cy, radius, p);
    }
    svg += scatteredLeaves(r, 4, w, h, h * 0.06, p, { x: cx, y: cy, r: radius * 1.15 });
    return { svg, focus: { x: cx, y: cy } };
  },

  hero(r, w, h, p) {
    let svg = tableTop(r, w, h, p);
    const radius = h * 0.33;
    const centres = [0.18, 0.5, 0.82].map((x, i) => ({
      x: w * x + r.range(-w * 0.03, w * 0.03),
      y: h * (i % 2 ? 0.58 : 0.45) + r.range(-h * 0.04, h * 0.04),
    }));
    svg += napkin(r, w * 0.34, h * 0.22, radius * 0.9, p);
    centres.forEach((c, i) => {
      if (i === 1 && r.chance(0.5)) {
        svg += bowl(r, c.x, c.y, radius * 1.05, p, p.sauce);
        svg += steam(c.x, c.y - radius * 0.5, radius * 0.9);
      } else {
        svg += plate(c.x, c.y, radius, p);
        svg += dish(r, c.x, c.y, radius, p);
      }
    });
    svg += scatteredLeaves(r, 8, w, h, h * 0.07, p, { x: w / 2, y: h / 2, r: 0 });
    const main = centres[1] ?? { x: w / 2, y: h / 2 };
    return { svg, focus: main };
  },

  news(r, w, h, p, title) {
    const scene = r.next();
    if (scene < 0.25) return scenes.card(r, w, h, p, title);
    if (scene < 0.5) {
      // A grill: sausages and drumsticks over the bars.
      let svg = `<rect width="${w}" height="${h}" fill="#2b2b2e"/>`;
      for (let i = 0; i < 14; i++) {
        const y = h * 0.08 + (i * h * 0.84) / 13;
        svg += `<rect x="0" y="${n(y)}" width="${w}" height="${n(h * 0.012)}" fill="#6b6b70"/>`;
      }
      for (let i = 0; i < 6; i++) {
        svg += sausage(
          w * (0.15 + (i % 3) * 0.25) + r.range(-20, 20),
          h * (0.3 + Math.floor(i / 3) * 0.35),
          w * 0.2,
          r.range(-8, 8),
          p,
          2,
        );
      }
      svg += drumstick(w * 0.85, h * 0.5, h * 0.35, r.range(-30, 30), p);
      svg += steam(w * 0.4, h * 0.25, h * 0.3);
      return { svg, focus: { x: w * 0.45, y: h * 0.5 } };
    }
    const svg = landscape(r, w, h, p);
    return { svg, focus: { x: w / 2, y: h * 0.55 } };
  },

  person(r, w, h, p) {
    return { svg: portrait(r, w, h, p), focus: { x: w / 2, y: h * 0.4 } };
  },

  product(r, w, h, p, title) {
    const bg = r.pick(['#ffffff', '#f7f4ef', '#f3f5f7']);
    let svg = `<rect width="${w}" height="${h}" fill="${bg}"/>`;
    svg += `<rect y="${n(h * 0.72)}" width="${w}" height="${n(h * 0.28)}" fill="${darken(bg, 0.04)}"/>`;
    const style = r.int(0, 2);
    const text = title.trim() || 'Kattaus';
    if (style === 0) svg += tray(r, w, h, p, text);
    else if (style === 1) svg += pouch(r, w, h, p, text);
    else svg += box(r, w, h, p, text);
    return { svg, focus: { x: w / 2, y: h / 2 } };
  },
};

/**
 * The title on a pack, centred on (cx, top): the largest font size (down to a floor) at which it
 * fits the label's width in at most three lines.
 */
function label(text: string, cx: number, top: number, width: number, colour: string): string {
  let size = Math.round(width / 9);
  let lines = wrapText(text, perLineAt(width, size), 3);
  while (size > width / 16 && lines.at(-1)?.endsWith('…')) {
    size = Math.round(size * 0.9);
    lines = wrapText(text, perLineAt(width, size), 3);
  }
  const tspans = lines
    .map(
      (line, i) =>
        `<tspan x="${n(cx)}" y="${n(top + size * (1 + i * 1.18))}">${escapeXml(line)}</tspan>`,
    )
    .join('');
  return `<text font-family="${FONT}" font-weight="700" font-size="${size}" fill="${colour}" text-anchor="middle">${tspans}</text>`;
}

/** Characters per line at a font size: DejaVu Sans Bold averages ~0.62 em per character. */
function perLineAt(width: number, size: number): number {
  return Math.max(6, Math.floor(width / (size * 0.62)));
}

/** A plastic tray with a window onto sausages or fillets and a label across it. */
function tray(r: Random, w: number, h: number, p: Palette, title: string): string {
  const tw = w * 0.78;
  const th = h * 0.5;
  const x = (w - tw) / 2;
  const y = h * 0.24;
  let out = shadow(w / 2, y + th + h * 0.02, tw * 0.52, h * 0.04);
  out += `<rect x="${n(x)}" y="${n(y)}" width="${n(tw)}" height="${n(th)}" rx="${n(w * 0.04)}" fill="${r.pick(['#1f1f22', '#2d3a2e', '#f2efe8'])}"/>`;
  out += `<rect x="${n(x + tw * 0.04)}" y="${n(y + th * 0.06)}" width="${n(tw * 0.92)}" height="${n(th * 0.88)}" rx="${n(w * 0.03)}" fill="${lighten(p.meat[0], 0.55)}"/>`;
  if (r.chance(0.5)) {
    for (let i = 0; i < 4; i++) {
      out += sausage(w / 2, y + th * (0.2 + i * 0.2), tw * 0.78, 0, p, i % 2);
    }
  } else {
    for (let i = 0; i < 6; i++) {
      out += meatball(
        x + tw * (0.2 + (i % 3) * 0.3),
        y + th * (0.3 + Math.floor(i / 3) * 0.4),
        th * 0.15,
        p,
      );
    }
  }
  // Film shine and the label.
  out += `<path d="M${n(x + tw * 0.1)} ${n(y + th * 0.1)}l${n(tw * 0.25)} 0l${n(-tw * 0.12)} ${n(th * 0.8)}l${n(-tw * 0.13)} 0Z" fill="#fff" fill-opacity="0.18"/>`;
  const lw = tw * 0.62;
  const lh = th * 0.62;
  const lx = w / 2 - lw / 2;
  const ly = y + th * 0.19;
  out += `<rect x="${n(lx)}" y="${n(ly)}" width="${n(lw)}" height="${n(lh)}" rx="${n(w * 0.015)}" fill="#fffdf7"/>`;
  out += `<rect x="${n(lx)}" y="${n(ly)}" width="${n(lw)}" height="${n(lh * 0.2)}" rx="${n(w * 0.015)}" fill="${p.brand}"/>`;
  out += `<circle cx="${n(w / 2)}" cy="${n(ly + lh * 0.1)}" r="${n(lh * 0.07)}" fill="${lighten(p.brand, 0.8)}"/>`;
  out += label(title, w / 2, ly + lh * 0.24, lw * 0.9, '#2a211c');
  out += leaf(r, lx + lw * 0.1, ly + lh * 0.88, lw * 0.12, -20, p.greens[0]);
  return out;
}

/** A stand-up pouch with a crimped top, a brand band and the title. */
function pouch(r: Random, w: number, h: number, p: Palette, title: string): string {
  const pw = w * 0.56;
  const ph = h * 0.74;
  const x = (w - pw) / 2;
  const y = h * 0.1;
  const colour = r.pick([p.brand, p.cloth, '#f4efe6']);
  const ink = colour === '#f4efe6' ? '#2a211c' : '#ffffff';
  let out = shadow(w / 2, y + ph, pw * 0.55, h * 0.035);
  out += `<path d="M${n(x)} ${n(y + ph * 0.06)}H${n(x + pw)}L${n(x + pw * 1.03)} ${n(y + ph)}H${n(x - pw * 0.03)}Z" fill="${colour}"/>`;
  out += `<rect x="${n(x)}" y="${n(y)}" width="${n(pw)}" height="${n(ph * 0.06)}" fill="${darken(colour, 0.2)}"/>`;
  for (let i = 1; i < 16; i++) {
    out += `<rect x="${n(x + (pw * i) / 16)}" y="${n(y)}" width="${n(pw * 0.006)}" height="${n(ph * 0.06)}" fill="${darken(colour, 0.35)}"/>`;
  }
  out += `<rect x="${n(x + pw * 0.78)}" y="${n(y + ph * 0.08)}" width="${n(pw * 0.08)}" height="${n(ph * 0.9)}" fill="#000" fill-opacity="0.06"/>`;
  out += label(title, w / 2, y + ph * 0.16, pw * 0.88, ink);
  // A window showing the food.
  const wy = y + ph * 0.58;
  out += `<ellipse cx="${n(w / 2)}" cy="${n(wy + ph * 0.14)}" rx="${n(pw * 0.36)}" ry="${n(ph * 0.16)}" fill="${lighten(p.meat[0], 0.6)}"/>`;
  for (let i = 0; i < 3; i++) {
    out += drumstick(w / 2 + (i - 1) * pw * 0.2, wy + ph * 0.14, pw * 0.3, -70 + i * 20, p);
  }
  return out;
}

/** A carton in three-quarter view with the title on its front. */
function box(r: Random, w: number, h: number, p: Palette, title: string): string {
  const bw = w * 0.56;
  const bh = h * 0.56;
  const depth = w * 0.12;
  const x = (w - bw) / 2 - depth / 2;
  const y = h * 0.2;
  const colour = r.pick([p.brand, p.accents[1], p.cloth]);
  let out = shadow(w / 2 + depth * 0.3, y + bh, bw * 0.62, h * 0.04);
  out += `<path d="M${n(x + bw)} ${n(y)}l${n(depth)} ${n(-depth * 0.6)}v${n(bh)}l${n(-depth)} ${n(depth * 0.6)}Z" fill="${darken(colour, 0.28)}"/>`;
  out += `<path d="M${n(x)} ${n(y)}l${n(depth)} ${n(-depth * 0.6)}h${n(bw)}l${n(-depth)} ${n(depth * 0.6)}Z" fill="${lighten(colour, 0.2)}"/>`;
  out += `<rect x="${n(x)}" y="${n(y)}" width="${n(bw)}" height="${n(bh)}" fill="${colour}"/>`;
  out += `<rect x="${n(x + bw * 0.06)}" y="${n(y + bh * 0.08)}" width="${n(bw * 0.88)}" height="${n(bh * 0.42)}" rx="${n(bw * 0.03)}" fill="#fffdf7"/>`;
  out += label(title, x + bw / 2, y + bh * 0.12, bw * 0.8, '#2a211c');
  out += plate(x + bw / 2, y + bh * 0.74, bh * 0.2, p);
  out += dish(r, x + bw / 2, y + bh * 0.74, bh * 0.18, p);
  out += leaf(r, x + bw * 0.12, y + bh * 0.9, bw * 0.12, -40, p.greens[1]);
  return out;
}
