import { darken, lighten, mix, n, type Random } from './svg.ts';

/**
 * Food illustration parts as SVG fragments. Every part is drawn in flat colours with at most a
 * translucent shadow: librsvg rasterises flat fills several times faster than gradients, which
 * keeps a generated image within its time budget (see generate.server.ts).
 */

export interface Palette {
  name: string;
  /** Table or background, top and bottom. */
  table: [string, string];
  plate: string;
  cloth: string;
  /** Browned meat, light to dark. */
  meat: [string, string, string];
  sauce: string;
  greens: [string, string];
  accents: [string, string];
  /** Brand band on packaging. */
  brand: string;
}

export const palettes: readonly Palette[] = [
  {
    name: 'birch',
    table: ['#efe3cf', '#d9c3a0'],
    plate: '#fbf8f2',
    cloth: '#2f5d8a',
    meat: ['#d98c4a', '#b5602c', '#7a3b1a'],
    sauce: '#c8782f',
    greens: ['#5f9e3a', '#3f7a2a'],
    accents: ['#d8342b', '#f2c14e'],
    brand: '#c8102e',
  },
  {
    name: 'oak',
    table: ['#b07a4f', '#8a5a36'],
    plate: '#f6f1e7',
    cloth: '#e9dcc3',
    meat: ['#e0a15e', '#b86b33', '#6e3515'],
    sauce: '#a4512a',
    greens: ['#6da544', '#43782b'],
    accents: ['#e2482f', '#f5d37a'],
    brand: '#1f4e79',
  },
  {
    name: 'slate',
    table: ['#4a4f55', '#33373c'],
    plate: '#f2efe9',
    cloth: '#b34a3c',
    meat: ['#e8a25a', '#c06a2e', '#7c3a14'],
    sauce: '#d58b3a',
    greens: ['#79b04a', '#4c8430'],
    accents: ['#f0c24a', '#e4572e'],
    brand: '#0f7a3d',
  },
  {
    name: 'linen',
    table: ['#f4ece0', '#e6d6bd'],
    plate: '#ffffff',
    cloth: '#c7523c',
    meat: ['#dc9552', '#b0612d', '#73391a'],
    sauce: '#e0a33c',
    greens: ['#88b04b', '#55803a'],
    accents: ['#e94f37', '#f6bd60'],
    brand: '#8c1c13',
  },
  {
    name: 'rye',
    table: ['#c9a27a', '#a47b55'],
    plate: '#f7f3ea',
    cloth: '#3d6b4f',
    meat: ['#d4894a', '#a75a27', '#6a3212'],
    sauce: '#8e3b1f',
    greens: ['#7aa84a', '#4d7a2f'],
    accents: ['#d1495b', '#edae49'],
    brand: '#e07a1f',
  },
  {
    name: 'lingonberry',
    table: ['#f3e6e1', '#e2c9bf'],
    plate: '#fffdf9',
    cloth: '#9b1d20',
    meat: ['#e3a464', '#bd6f35', '#7d3d18'],
    sauce: '#b3361f',
    greens: ['#5e9f48', '#3c7032'],
    accents: ['#c0262d', '#f2b134'],
    brand: '#5b2a86',
  },
];

const skinTones = ['#f1c9a5', '#e0ac84', '#c68863', '#a26a46', '#7c4a2d', '#f6d7bd'];
const hairColours = ['#2b1d14', '#5a3a22', '#a0652f', '#d9b36c', '#8c8c8c', '#1b1b1b'];

export function shadow(cx: number, cy: number, rx: number, ry: number): string {
  return `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(rx)}" ry="${n(ry)}" fill="#000" fill-opacity="0.16"/>`;
}

export function tableTop(r: Random, w: number, h: number, p: Palette): string {
  const [top, bottom] = p.table;
  // Opaque fills only: blending a translucent layer over the whole picture costs as much as
  // drawing everything else.
  const lower = mix(top, bottom, 0.45);
  let out = `<rect width="${w}" height="${h}" fill="${top}"/>`;
  out += `<rect y="${n(h * 0.55)}" width="${w}" height="${n(h * 0.45)}" fill="${lower}"/>`;
  if (r.chance(0.6)) {
    // Planks and a little grain.
    const planks = r.int(4, 7);
    const step = h / planks;
    for (let i = 1; i < planks; i++) {
      const y = i * step + r.range(-step * 0.1, step * 0.1);
      const under = y > h * 0.55 ? lower : top;
      out += `<rect y="${n(y)}" width="${w}" height="${n(Math.max(2, h / 300))}" fill="${mix(under, darken(bottom, 0.25), 0.5)}"/>`;
    }
    for (let i = 0; i < planks * 2; i++) {
      const y = r.range(0, h);
      const x = r.range(0, w * 0.8);
      const under = y > h * 0.55 ? lower : top;
      out += `<path d="M${n(x)} ${n(y)}q${n(w * 0.08)} ${n(r.range(-8, 8))} ${n(w * 0.2)} 0" stroke="${mix(under, darken(top, 0.15), 0.35)}" stroke-width="${n(h / 400)}" fill="none"/>`;
    }
  }
  return out;
}

export function napkin(r: Random, x: number, y: number, size: number, p: Palette): string {
  const angle = r.range(-12, 12);
  const stripe = lighten(p.cloth, 0.75);
  return `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)})">${shadow(size * 0.04, size * 0.5, size * 0.52, size * 0.5)}<rect x="${n(-size / 2)}" y="${n(-size * 0.05)}" width="${n(size)}" height="${n(size * 1.05)}" rx="${n(size * 0.03)}" fill="${p.cloth}"/><rect x="${n(-size / 2)}" y="${n(size * 0.12)}" width="${n(size)}" height="${n(size * 0.06)}" fill="${stripe}" fill-opacity="0.8"/><rect x="${n(-size / 2)}" y="${n(size * 0.82)}" width="${n(size)}" height="${n(size * 0.06)}" fill="${stripe}" fill-opacity="0.8"/></g>`;
}

export function plate(cx: number, cy: number, radius: number, p: Palette): string {
  return (
    shadow(cx + radius * 0.05, cy + radius * 0.08, radius * 1.02, radius * 1.0) +
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(radius)}" fill="${p.plate}"/>` +
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(radius * 0.74)}" fill="${darken(p.plate, 0.05)}"/>` +
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(radius * 0.7)}" fill="${p.plate}"/>`
  );
}

export function bowl(
  r: Random,
  cx: number,
  cy: number,
  radius: number,
  p: Palette,
  filling: string,
): string {
  let out =
    shadow(cx + radius * 0.06, cy + radius * 0.08, radius * 1.02, radius) +
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(radius)}" fill="${r.pick(p.accents)}"/>` +
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(radius * 0.84)}" fill="${filling}"/>`;
  const bits = r.int(5, 9);
  for (let i = 0; i < bits; i++) {
    const a = r.range(0, Math.PI * 2);
    const d = r.range(0, radius * 0.6);
    const x = cx + Math.cos(a) * d;
    const y = cy + Math.sin(a) * d;
    out += r.chance(0.5)
      ? `<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius * r.range(0.07, 0.12))}" fill="${r.pick(p.meat)}"/>`
      : leaf(r, x, y, radius * 0.22, r.range(0, 360), r.pick(p.greens));
  }
  return out;
}

export function sausage(
  x: number,
  y: number,
  length: number,
  angle: number,
  p: Palette,
  shade = 1,
): string {
  const thick = length * 0.24;
  const half = (length - thick) / 2;
  const colour = p.meat[shade] ?? p.meat[1];
  let marks = '';
  for (let i = -2; i <= 2; i++) {
    const mx = (i * (length - thick)) / 5;
    marks += `<path d="M${n(mx - thick * 0.15)} ${n(-thick * 0.3)}l${n(thick * 0.3)} ${n(thick * 0.6)}" stroke="${p.meat[2]}" stroke-width="${n(thick * 0.12)}" stroke-linecap="round"/>`;
  }
  return `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)})"><path d="M${n(-half)} ${n(thick * 0.18)}H${n(half)}" stroke="#000" stroke-opacity="0.16" stroke-width="${n(thick)}" stroke-linecap="round"/><path d="M${n(-half)} 0H${n(half)}" stroke="${colour}" stroke-width="${n(thick)}" stroke-linecap="round"/><path d="M${n(-half * 0.9)} ${n(-thick * 0.22)}H${n(half * 0.8)}" stroke="${lighten(colour, 0.35)}" stroke-width="${n(thick * 0.16)}" stroke-linecap="round"/>${marks}</g>`;
}

export function drumstick(x: number, y: number, size: number, angle: number, p: Palette): string {
  const s = size;
  return `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)})"><ellipse cx="${n(s * 0.04)}" cy="${n(s * 0.06)}" rx="${n(s * 0.36)}" ry="${n(s * 0.28)}" fill="#000" fill-opacity="0.16"/><rect x="${n(s * 0.2)}" y="${n(-s * 0.05)}" width="${n(s * 0.42)}" height="${n(s * 0.1)}" fill="#f3ead8"/><circle cx="${n(s * 0.64)}" cy="${n(-s * 0.06)}" r="${n(s * 0.07)}" fill="#f3ead8"/><circle cx="${n(s * 0.64)}" cy="${n(s * 0.06)}" r="${n(s * 0.07)}" fill="#f3ead8"/><path d="M${n(-s * 0.38)} 0C${n(-s * 0.38)} ${n(-s * 0.3)} ${n(s * 0.05)} ${n(-s * 0.3)} ${n(s * 0.28)} ${n(-s * 0.07)}L${n(s * 0.28)} ${n(s * 0.07)}C${n(s * 0.05)} ${n(s * 0.3)} ${n(-s * 0.38)} ${n(s * 0.3)} ${n(-s * 0.38)} 0Z" fill="${p.meat[1]}"/><path d="M${n(-s * 0.26)} ${n(-s * 0.12)}C${n(-s * 0.12)} ${n(-s * 0.2)} ${n(s * 0.05)} ${n(-s * 0.18)} ${n(s * 0.16)} ${n(-s * 0.08)}" stroke="${p.meat[0]}" stroke-width="${n(s * 0.05)}" stroke-linecap="round" fill="none"/><circle cx="${n(-s * 0.1)}" cy="${n(s * 0.08)}" r="${n(s * 0.04)}" fill="${p.meat[2]}" fill-opacity="0.6"/><circle cx="${n(s * 0.05)}" cy="${n(s * 0.02)}" r="${n(s * 0.03)}" fill="${p.meat[2]}" fill-opacity="0.6"/></g>`;
}

export function meatball(x: number, y: number, radius: number, p: Palette): string {
  return `<circle cx="${n(x + radius * 0.12)}" cy="${n(y + radius * 0.15)}" r="${n(radius)}" fill="#000" fill-opacity="0.16"/><circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="${p.meat[2]}"/><circle cx="${n(x - radius * 0.12)}" cy="${n(y - radius * 0.12)}" r="${n(radius * 0.78)}" fill="${p.meat[1]}"/><circle cx="${n(x - radius * 0.35)}" cy="${n(y - radius * 0.35)}" r="${n(radius * 0.2)}" fill="${p.meat[0]}"/>`;
}

export function fillet(r: Random, x: number, y: number, size: number, p: Palette): string {
  const angle = r.range(-30, 30);
  const s = size;
  let marks = '';
  for (let i = -2; i <= 2; i++) {
    marks += `<path d="M${n(i * s * 0.16 - s * 0.1)} ${n(-s * 0.2)}l${n(s * 0.2)} ${n(s * 0.4)}" stroke="${p.meat[2]}" stroke-width="${n(s * 0.035)}" stroke-linecap="round" stroke-opacity="0.8"/>`;
  }
  return `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)})"><ellipse cx="${n(s * 0.04)}" cy="${n(s * 0.06)}" rx="${n(s * 0.5)}" ry="${n(s * 0.3)}" fill="#000" fill-opacity="0.16"/><path d="M${n(-s * 0.5)} 0C${n(-s * 0.45)} ${n(-s * 0.34)} ${n(s * 0.3)} ${n(-s * 0.36)} ${n(s * 0.5)} ${n(-s * 0.05)}C${n(s * 0.4)} ${n(s * 0.3)} ${n(-s * 0.3)} ${n(s * 0.34)} ${n(-s * 0.5)} 0Z" fill="${p.meat[0]}"/>${marks}</g>`;
}

export function potato(r: Random, x: number, y: number, size: number): string {
  const colour = r.pick(['#e8c46a', '#dfb75a', '#edd08a']);
  return `<ellipse cx="${n(x + size * 0.06)}" cy="${n(y + size * 0.08)}" rx="${n(size * 0.5)}" ry="${n(size * 0.38)}" fill="#000" fill-opacity="0.14"/><ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(size * 0.5)}" ry="${n(size * 0.38)}" fill="${colour}" transform="rotate(${n(r.range(-40, 40))} ${n(x)} ${n(y)})"/><circle cx="${n(x - size * 0.15)}" cy="${n(y - size * 0.1)}" r="${n(size * 0.06)}" fill="${lighten(colour, 0.5)}"/>`;
}

export function mash(r: Random, x: number, y: number, size: number): string {
  let out = `<circle cx="${n(x)}" cy="${n(y)}" r="${n(size * 0.5)}" fill="#f4e3b0"/>`;
  for (let i = 0; i < 4; i++) {
    out += `<path d="M${n(x - size * 0.35 + r.range(0, size * 0.1))} ${n(y - size * 0.3 + i * size * 0.18)}q${n(size * 0.2)} ${n(-size * 0.08)} ${n(size * 0.5)} 0" stroke="#e5cd8c" stroke-width="${n(size * 0.04)}" fill="none" stroke-linecap="round"/>`;
  }
  return out;
}

export function leaf(
  _r: Random,
  x: number,
  y: number,
  size: number,
  angle: number,
  colour: string,
): string {
  const s = size;
  return `<g transform="translate(${n(x)} ${n(y)}) rotate(${n(angle)})"><path d="M0 0Q${n(s * 0.5)} ${n(-s * 0.38)} ${n(s)} 0Q${n(s * 0.5)} ${n(s * 0.38)} 0 0Z" fill="${colour}"/><path d="M${n(s * 0.05)} 0H${n(s * 0.85)}" stroke="${lighten(colour, 0.35)}" stroke-width="${n(Math.max(1, s * 0.04))}"/></g>`;
}

export function tomatoSlice(x: number, y: number, radius: number, p: Palette): string {
  const red = p.accents[0];
  return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="${red}"/><circle cx="${n(x)}" cy="${n(y)}" r="${n(radius * 0.78)}" fill="${lighten(red, 0.25)}"/><circle cx="${n(x - radius * 0.3)}" cy="${n(y)}" r="${n(radius * 0.14)}" fill="#f7e3a3"/><circle cx="${n(x + radius * 0.3)}" cy="${n(y)}" r="${n(radius * 0.14)}" fill="#f7e3a3"/><circle cx="${n(x)}" cy="${n(y - radius * 0.3)}" r="${n(radius * 0.14)}" fill="#f7e3a3"/>`;
}

export function lemonSlice(x: number, y: number, radius: number): string {
  let segs = '';
  for (let i = 0; i < 8; i++) {
    const a = (i * Math.PI) / 4;
    segs += `<path d="M${n(x)} ${n(y)}L${n(x + Math.cos(a) * radius * 0.8)} ${n(y + Math.sin(a) * radius * 0.8)}" stroke="#fff6c9" stroke-width="${n(radius * 0.07)}"/>`;
  }
  return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(radius)}" fill="#f1c232"/><circle cx="${n(x)}" cy="${n(y)}" r="${n(radius * 0.86)}" fill="#f9df6b"/>${segs}`;
}

export function steam(x: number, y: number, height: number): string {
  let out = '';
  for (let i = -1; i <= 1; i++) {
    const sx = x + i * height * 0.22;
    const q = height / 4;
    out += `<path d="M${n(sx)} ${n(y)}q${n(q * 0.5)} ${n(-q)} 0 ${n(-q * 2)}t0 ${n(-q * 2)}" stroke="#fff" stroke-opacity="0.55" stroke-width="${n(height * 0.045)}" fill="none" stroke-linecap="round"/>`;
  }
  return out;
}

export function cutlery(x: number, y: number, length: number, colour = '#c9ccd1'): string {
  const w = length * 0.06;
  let tines = '';
  for (let i = 0; i < 4; i++) {
    tines += `<rect x="${n(x - w * 0.9 + i * w * 0.6)}" y="${n(y)}" width="${n(w * 0.22)}" height="${n(length * 0.2)}" rx="${n(w * 0.1)}" fill="${colour}"/>`;
  }
  const knifeX = x + length * 0.18;
  return (
    tines +
    `<rect x="${n(x - w * 0.9)}" y="${n(y + length * 0.18)}" width="${n(w * 2)}" height="${n(length * 0.08)}" rx="${n(w * 0.4)}" fill="${colour}"/>` +
    `<rect x="${n(x - w * 0.3)}" y="${n(y + length * 0.24)}" width="${n(w * 0.6)}" height="${n(length * 0.76)}" rx="${n(w * 0.3)}" fill="${colour}"/>` +
    `<path d="M${n(knifeX)} ${n(y)}q${n(w * 1.4)} ${n(length * 0.1)} ${n(w * 1.1)} ${n(length * 0.45)}h${n(-w * 1.1)}Z" fill="${lighten(colour, 0.3)}"/>` +
    `<rect x="${n(knifeX - w * 0.05)}" y="${n(y + length * 0.45)}" width="${n(w * 1.2)}" height="${n(length * 0.55)}" rx="${n(w * 0.5)}" fill="${darken(colour, 0.35)}"/>`
  );
}

/** What lies on a plate: one of a few dishes, drawn around (cx, cy) within `radius`. */
export function dish(r: Random, cx: number, cy: number, radius: number, p: Palette): string {
  const kind = r.int(0, 3);
  let out = '';
  if (kind === 0) {
    // Sausages with potatoes.
    const count = r.int(2, 3);
    for (let i = 0; i < count; i++) {
      out += sausage(
        cx - radius * 0.1,
        cy - radius * 0.28 + i * radius * 0.26,
        radius * 0.95,
        r.range(-12, 12),
        p,
        r.int(0, 1),
      );
    }
    for (let i = 0; i < 3; i++) {
      out += potato(r, cx + radius * 0.35, cy + radius * (0.25 + i * 0.12), radius * 0.28);
    }
  } else if (kind === 1) {
    // Drumsticks on greens.
    for (let i = 0; i < 5; i++) {
      out += leaf(
        r,
        cx + r.range(-radius * 0.4, radius * 0.2),
        cy + r.range(-radius * 0.4, radius * 0.3),
        radius * 0.45,
        r.range(0, 360),
        r.pick(p.greens),
      );
    }
    for (let i = 0; i < 3; i++) {
      out += drumstick(
        cx + r.range(-radius * 0.15, radius * 0.15),
        cy - radius * 0.3 + i * radius * 0.3,
        radius * 0.8,
        r.range(-25, 25),
        p,
      );
    }
    out += tomatoSlice(cx - radius * 0.45, cy + radius * 0.35, radius * 0.16, p);
  } else if (kind === 2) {
    // Meatballs, mash and lingonberries.
    out += mash(r, cx + radius * 0.22, cy + radius * 0.05, radius * 0.75);
    for (let i = 0; i < 5; i++) {
      const a = (i / 5) * Math.PI * 1.2 + Math.PI * 0.6;
      out += meatball(
        cx + Math.cos(a) * radius * 0.38,
        cy + Math.sin(a) * radius * 0.38,
        radius * 0.15,
        p,
      );
    }
    for (let i = 0; i < 7; i++) {
      out += `<circle cx="${n(cx + r.range(-radius * 0.1, radius * 0.1))}" cy="${n(cy - radius * 0.45 + r.range(0, radius * 0.12))}" r="${n(radius * 0.05)}" fill="#b3122e"/>`;
    }
    out += leaf(r, cx + radius * 0.3, cy - radius * 0.2, radius * 0.3, -30, p.greens[0]);
  } else {
    // Fillet with lemon and herbs.
    out += fillet(r, cx - radius * 0.05, cy, radius * 1.1, p);
    out += lemonSlice(cx + radius * 0.4, cy + radius * 0.35, radius * 0.18);
    for (let i = 0; i < 4; i++) {
      out += leaf(
        r,
        cx - radius * 0.5 + i * radius * 0.12,
        cy + radius * 0.4,
        radius * 0.25,
        r.range(-80, -20),
        r.pick(p.greens),
      );
    }
  }
  return out;
}

export function scatteredLeaves(
  r: Random,
  count: number,
  w: number,
  h: number,
  size: number,
  p: Palette,
  avoid: { x: number; y: number; r: number },
): string {
  let out = '';
  for (let i = 0; i < count; i++) {
    let x = r.range(0, w);
    let y = r.range(0, h);
    if (Math.hypot(x - avoid.x, y - avoid.y) < avoid.r) {
      x = (x + w / 2) % w;
      y = (y + h / 2) % h;
    }
    out += leaf(r, x, y, size * r.range(0.7, 1.2), r.range(0, 360), r.pick(p.greens));
  }
  return out;
}

export function portrait(r: Random, w: number, h: number, p: Palette): string {
  const skin = r.pick(skinTones);
  const hair = r.pick(hairColours);
  const shirt = r.pick([p.cloth, p.brand, p.accents[0], '#2e3a48']);
  const cx = w * r.range(0.45, 0.55);
  const headY = h * 0.4;
  const head = w * 0.2;
  const apron = r.chance(0.5);
  let out = `<rect width="${w}" height="${h}" fill="${p.table[0]}"/><circle cx="${n(w * 0.8)}" cy="${n(h * 0.2)}" r="${n(w * 0.35)}" fill="${p.table[1]}" fill-opacity="0.6"/>`;
  out += `<path d="M${n(cx - w * 0.42)} ${h}C${n(cx - w * 0.42)} ${n(h * 0.7)} ${n(cx - w * 0.25)} ${n(h * 0.64)} ${n(cx)} ${n(h * 0.64)}C${n(cx + w * 0.25)} ${n(h * 0.64)} ${n(cx + w * 0.42)} ${n(h * 0.7)} ${n(cx + w * 0.42)} ${h}Z" fill="${shirt}"/>`;
  if (apron) {
    out += `<path d="M${n(cx - w * 0.17)} ${h}V${n(h * 0.74)}H${n(cx + w * 0.17)}V${h}Z" fill="#f5f2ea"/><path d="M${n(cx - w * 0.15)} ${n(h * 0.74)}L${n(cx - w * 0.09)} ${n(h * 0.65)}M${n(cx + w * 0.15)} ${n(h * 0.74)}L${n(cx + w * 0.09)} ${n(h * 0.65)}" stroke="#f5f2ea" stroke-width="${n(w * 0.02)}"/>`;
  }
  out += `<rect x="${n(cx - head * 0.32)}" y="${n(headY + head * 0.7)}" width="${n(head * 0.64)}" height="${n(h * 0.64 - headY - head * 0.55)}" fill="${darken(skin, 0.08)}"/>`;
  out += `<ellipse cx="${n(cx)}" cy="${n(headY)}" rx="${n(head * 0.82)}" ry="${n(head)}" fill="${skin}"/>`;
  const style = r.int(0, 2);
  if (style === 0) {
    out += `<path d="M${n(cx - head * 0.86)} ${n(headY - head * 0.05)}C${n(cx - head * 0.9)} ${n(headY - head * 1.25)} ${n(cx + head * 0.9)} ${n(headY - head * 1.25)} ${n(cx + head * 0.86)} ${n(headY - head * 0.05)}C${n(cx + head * 0.5)} ${n(headY - head * 0.6)} ${n(cx - head * 0.5)} ${n(headY - head * 0.6)} ${n(cx - head * 0.86)} ${n(headY - head * 0.05)}Z" fill="${hair}"/>`;
  } else if (style === 1) {
    out += `<path d="M${n(cx - head * 0.9)} ${n(headY + head * 0.9)}C${n(cx - head * 1.1)} ${n(headY - head * 1.4)} ${n(cx + head * 1.1)} ${n(headY - head * 1.4)} ${n(cx + head * 0.9)} ${n(headY + head * 0.9)}C${n(cx + head * 0.7)} ${n(headY - head * 0.3)} ${n(cx - head * 0.7)} ${n(headY - head * 0.3)} ${n(cx - head * 0.9)} ${n(headY + head * 0.9)}Z" fill="${hair}"/>`;
  } else {
    // Chef's hat.
    out += `<rect x="${n(cx - head * 0.75)}" y="${n(headY - head * 1.25)}" width="${n(head * 1.5)}" height="${n(head * 0.5)}" fill="#fbfbf8"/><circle cx="${n(cx - head * 0.45)}" cy="${n(headY - head * 1.4)}" r="${n(head * 0.45)}" fill="#fbfbf8"/><circle cx="${n(cx + head * 0.45)}" cy="${n(headY - head * 1.4)}" r="${n(head * 0.45)}" fill="#fbfbf8"/><circle cx="${n(cx)}" cy="${n(headY - head * 1.6)}" r="${n(head * 0.5)}" fill="#fbfbf8"/>`;
  }
  out += `<circle cx="${n(cx - head * 0.3)}" cy="${n(headY)}" r="${n(head * 0.07)}" fill="#2b2118"/><circle cx="${n(cx + head * 0.3)}" cy="${n(headY)}" r="${n(head * 0.07)}" fill="#2b2118"/><path d="M${n(cx - head * 0.25)} ${n(headY + head * 0.42)}q${n(head * 0.25)} ${n(head * 0.18)} ${n(head * 0.5)} 0" stroke="${darken(skin, 0.45)}" stroke-width="${n(head * 0.06)}" fill="none" stroke-linecap="round"/>`;
  return out;
}

/** Hills, fields, a farm and the sun: the countryside behind a news item. */
export function landscape(r: Random, w: number, h: number, p: Palette): string {
  const sky = r.pick(['#bcdff1', '#f6d8ae', '#d4e6f1', '#f3c6a5']);
  let out = `<rect width="${w}" height="${h}" fill="${sky}"/>`;
  out += `<rect y="${n(h * 0.3)}" width="${w}" height="${n(h * 0.3)}" fill="${lighten(sky, 0.35)}" fill-opacity="0.6"/>`;
  out += `<circle cx="${n(w * r.range(0.15, 0.85))}" cy="${n(h * r.range(0.15, 0.3))}" r="${n(h * 0.09)}" fill="#fff3c4"/>`;
  const greens = ['#9cc46b', '#7fae55', '#5f9140', '#4a7a33'];
  for (let layer = 0; layer < 4; layer++) {
    const base = h * (0.45 + layer * 0.12);
    let d = `M0 ${n(base)}`;
    const segments = 4;
    for (let i = 0; i < segments; i++) {
      const x1 = ((i + 0.5) / segments) * w;
      const x2 = ((i + 1) / segments) * w;
      d += `Q${n(x1)} ${n(base - r.range(-h * 0.04, h * 0.1))} ${n(x2)} ${n(base + r.range(-h * 0.03, h * 0.03))}`;
    }
    d += `V${h}H0Z`;
    out += `<path d="${d}" fill="${greens[layer]}"/>`;
    if (layer === 1) {
      // Farm on the second ridge: the focus of the picture.
      const bx = w * r.range(0.3, 0.7);
      const by = base - h * 0.02;
      const bw = w * 0.12;
      const red = p.accents[0].startsWith('#f') ? '#a8322d' : p.accents[0];
      out += `<rect x="${n(bx - bw / 2)}" y="${n(by - bw * 0.55)}" width="${n(bw)}" height="${n(bw * 0.55)}" fill="${red}"/><path d="M${n(bx - bw * 0.6)} ${n(by - bw * 0.55)}L${n(bx)} ${n(by - bw * 0.95)}L${n(bx + bw * 0.6)} ${n(by - bw * 0.55)}Z" fill="#4b3b35"/><rect x="${n(bx - bw * 0.1)}" y="${n(by - bw * 0.3)}" width="${n(bw * 0.2)}" height="${n(bw * 0.3)}" fill="#f5efe4"/>`;
      for (let t = 0; t < 4; t++) {
        const tx = bx + bw * (0.9 + t * 0.35) * (t % 2 ? -1 : 1);
        out += `<rect x="${n(tx - bw * 0.03)}" y="${n(by - bw * 0.25)}" width="${n(bw * 0.06)}" height="${n(bw * 0.25)}" fill="#5b4330"/><circle cx="${n(tx)}" cy="${n(by - bw * 0.38)}" r="${n(bw * 0.2)}" fill="${darken(greens[2] ?? '#5f9140', 0.25)}"/>`;
      }
    }
  }
  for (let i = 0; i < 6; i++) {
    const y = h * (0.82 + i * 0.035);
    out += `<path d="M0 ${n(y)}Q${n(w / 2)} ${n(y - h * 0.03)} ${w} ${n(y)}" stroke="#e7d27a" stroke-opacity="0.45" stroke-width="${n(h * 0.008)}" fill="none"/>`;
  }
  return out;
}
