import { useId } from 'react';
import type { LogoId } from '../../sites/types.ts';
import { initialGlyph, LETTER_STROKE } from './letter-glyphs.ts';

/**
 * The brand's word mark: an emblem with the initial and the name, drawn in the current text
 * colour so it sits on any header background. The initial is cut out of the emblem (a mask, so
 * the background shows through) as strokes (`letter-glyphs.ts`): it is part of the emblem, not
 * text, and the only text the logo shows is the name, with which its link's accessible name
 * begins (WCAG 2.5.3, label in name).
 */
export function SiteLogo(props: { logo: LogoId; name: string; className?: string }) {
  const maskId = useId();
  const glyph = initialGlyph(props.name);
  // The name is fitted to its box (textLength), so no font on any machine overflows the logo.
  const textWidth = Math.round(props.name.length * 13.5);
  const width = 48 + textWidth;
  return (
    <svg
      className={props.className}
      data-logo={props.logo}
      viewBox={`0 0 ${width} 40`}
      width={width}
      height={40}
      aria-hidden="true"
      focusable="false"
    >
      {glyph ? (
        <>
          <mask id={maskId}>
            <rect width="40" height="40" fill="#fff" />
            <path
              d={glyph}
              fill="none"
              stroke="#000"
              strokeWidth={LETTER_STROKE}
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </mask>
          <g mask={`url(#${maskId})`}>
            <Emblem logo={props.logo} />
          </g>
        </>
      ) : (
        <Emblem logo={props.logo} />
      )}
      <text
        x="44"
        y="27"
        fontSize="21"
        fontWeight="700"
        fill="currentColor"
        textLength={textWidth}
        lengthAdjust="spacingAndGlyphs"
      >
        {props.name}
      </text>
    </svg>
  );
}

function Emblem(props: { logo: LogoId }) {
  switch (props.logo) {
    case 'corporate':
      return <rect x="2" y="2" width="36" height="36" rx="10" fill="currentColor" />;
    case 'export':
      return <path d="M20 2 38 20 20 38 2 20Z" fill="currentColor" />;
    case 'ridderheims':
    case 'lithells':
    case 'lonneberga':
      return <path d="M4 4h32v18c0 9-7 14-16 16C11 36 4 31 4 22Z" fill="currentColor" />;
    default:
      return <circle cx="20" cy="20" r="18" fill="currentColor" />;
  }
}
