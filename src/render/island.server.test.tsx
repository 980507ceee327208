import { type ReactNode, useId } from 'react';
import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SiteHeaderProps } from '../features/navigation/header-props.ts';
import { loadDeferredParts, SiteHeader } from '../features/navigation/site-header.tsx';
import { serverT } from '../i18n/catalogues.ts';
import type { Lang } from '../sites/types.ts';
import { Island, IslandScope, type ResolvedIslands } from './island.server.tsx';
import { IslandRoot } from './island-root.tsx';

interface ParsedIsland {
  attributes: Record<string, string>;
  /** The raw (still escaped) text of each attribute, as it stands in the markup. */
  raw: Record<string, string>;
  inner: string;
}

const ENTITIES: Record<string, string> = {
  '&quot;': '"',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&#x27;': "'",
  '&#39;': "'",
};

function decodeAttribute(value: string): string {
  return value.replace(/&(?:quot|amp|lt|gt|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/** Every `<k-island>` of a page, with its decoded attributes and its inner HTML. */
function parseIslands(html: string): ParsedIsland[] {
  const islands: ParsedIsland[] = [];
  for (const match of html.matchAll(/<k-island((?:\s+[\w-]+="[^"]*")*)>(.*?)<\/k-island>/gs)) {
    const attributes: Record<string, string> = {};
    const raw: Record<string, string> = {};
    for (const attr of (match[1] ?? '').matchAll(/([\w-]+)="([^"]*)"/g)) {
      const [, name = '', value = ''] = attr;
      raw[name] = value;
      attributes[name] = decodeAttribute(value);
    }
    islands.push({ attributes, raw, inner: match[2] ?? '' });
  }
  return islands;
}

function only(html: string): ParsedIsland {
  const islands = parseIslands(html);
  expect(islands).toHaveLength(1);
  return islands[0] as ParsedIsland;
}

/** A tiny island with two ids and a visible prop. */
function Labelled(props: { label: string }) {
  const id = useId();
  const other = useId();
  return (
    <p>
      <label htmlFor={id}>{props.label}</label>
      <input id={id} aria-describedby={other} />
      <span id={other}>hint</span>
    </p>
  );
}

/** Ids in the markup, with React's leading marker taken off. */
function idsIn(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decodeAttribute(m[1] ?? ''));
}

function withoutMarker(id: string): string {
  return id.replace(/^[^A-Za-z0-9]+/, '');
}

const hostile = '</script><script>alert(1)</script>';

/** Props of the site header, the sample island: a tab and a link with the given labels. */
function headerProps(
  tabs: { href: string; label: string }[] = [],
  siteName = 'Sibylla',
): Omit<SiteHeaderProps, 'visitor'> {
  return {
    variant: 'brand',
    stickyThreshold: 200,
    siteName,
    logo: 'sibylla',
    homeHref: '/',
    searchAction: '/haku',
    currentPath: '/',
    desktop: {
      topTabs: [],
      bottomTabs: tabs.map((tab) => ({
        label: tab.label,
        link: tab.href,
        icon: null,
        isExternal: false,
        showBorder: false,
        children: [{ label: tab.label, link: `${tab.href}/a`, isExternal: false }],
        teaserImage: null,
        showMoreLabel: null,
      })),
      languageMenu: [{ label: 'In English', link: '/en/', lang: 'en' }],
    },
    mobile: {
      barLinks: tabs.map((tab) => ({ label: tab.label, link: tab.href })),
      navAccordions: [],
      navLinks: [],
      languageMenu: [],
    },
    cart: null,
    account: null,
    hideInFrame: false,
  };
}

// The server renders the header with its deferred parts, whose code the registry loads first.
beforeAll(() => loadDeferredParts());

/** The registry these tests render with: the real header, and a small component of their own. */
const components = {
  'site-header': SiteHeader,
  'site-search': Labelled,
} as unknown as Partial<ResolvedIslands>;

describe('<Island> props', () => {
  const props = headerProps(
    [
      { href: '/haku?q=a&b="c"', label: hostile },
      { href: "/it's", label: `"quoted" & <b>bold</b> 'single' \\ back \u2028 line` },
    ],
    hostile,
  );

  const html = renderToString(
    <IslandScope components={components}>
      <Island name="site-header" props={props} lang="fi" />
    </IslandScope>,
  );

  it('cannot break out of the markup', () => {
    expect(html).not.toContain('</script>');
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/<b>/);
    const island = only(html);
    expect(island.raw['data-props']).toBeDefined();
    expect(island.raw['data-props']).not.toMatch(/[<>"]/);
    // Every ampersand in the raw attribute starts an entity.
    expect(island.raw['data-props']).not.toMatch(/&(?!(?:quot|amp|lt|gt|#x27|#39);)/);
  });

  it('give back the original props when the attribute is parsed', () => {
    const island = only(html);
    expect(JSON.parse(island.attributes['data-props'] ?? 'null')).toEqual(props);
  });

  it('carry name, language and prefix', () => {
    const island = only(html);
    expect(island.attributes['data-name']).toBe('site-header');
    expect(island.attributes['data-lang']).toBe('fi');
    expect(island.attributes['data-prefix']).toBeTruthy();
  });

  it('name the texts of the island in its language, where the page has them', () => {
    const page = renderToString(
      <IslandScope
        components={components}
        textsUrl={(island, lang) => `/assets/texts-${lang}-${island}.js`}
      >
        <Island name="site-search" props={{ label: 'x' } as never} lang="sv" />
      </IslandScope>,
    );
    expect(only(page).attributes['data-texts']).toBe('/assets/texts-sv-site-search.js');
    expect(only(html).attributes['data-texts']).toBeUndefined();
  });

  it('name the modules of the island’s code, where the page has them', () => {
    const page = renderToString(
      <IslandScope components={components} codeUrls={(island) => `/assets/${island}.js#Search`}>
        <Island name="site-search" props={{ label: 'x' } as never} lang="sv" />
      </IslandScope>,
    );
    expect(only(page).attributes['data-code']).toBe('/assets/site-search.js#Search');
    expect(only(html).attributes['data-code']).toBeUndefined();
  });

  it('round-trip through a local component too', () => {
    const label = `${hostile} & "x" 'y' <z>`;
    const page = renderToString(
      <IslandScope components={components}>
        <Island name="site-search" props={{ label } as never} lang="en" />
      </IslandScope>,
    );
    expect(page).not.toContain('<script');
    const island = only(page);
    expect(JSON.parse(island.attributes['data-props'] ?? 'null')).toEqual({ label });
  });
});

describe('<Island> hydration trigger', () => {
  function hydrateOf(hydrate?: 'load' | 'idle' | 'visible'): string | undefined {
    const html = renderToString(
      <IslandScope components={components}>
        <Island
          name="site-header"
          props={headerProps()}
          lang="fi"
          {...(hydrate ? { hydrate } : {})}
        />
      </IslandScope>,
    );
    return only(html).attributes['data-hydrate'];
  }

  it('defaults to load', () => {
    expect(hydrateOf()).toBe('load');
  });

  it.each(['load', 'idle', 'visible'] as const)('respects %s', (hydrate) => {
    expect(hydrateOf(hydrate)).toBe(hydrate);
  });
});

describe('<Island> identifiers', () => {
  // Rendered once the header's deferred parts are loaded (the file's beforeAll runs first).
  let islands: ReturnType<typeof parseIslands> = [];
  beforeAll(() => {
    islands = parseIslands(
      renderToString(
        <IslandScope components={components}>
          <main>
            <Island name="site-header" props={headerProps()} lang="fi" />
            <Island name="site-search" props={{ label: 'Nimi' } as never} lang="fi" />
            <Island name="site-header" props={headerProps()} lang="sv" />
          </main>
        </IslandScope>,
      ),
    );
  });

  it('gives every island of a page its own prefix', () => {
    expect(islands).toHaveLength(3);
    const prefixes = islands.map((i) => i.attributes['data-prefix']);
    expect(new Set(prefixes).size).toBe(3);
    for (const prefix of prefixes) expect(prefix).toMatch(/^site-(header|search)-/);
  });

  it('starts each island’s useId ids with its prefix', () => {
    const all: string[] = [];
    for (const island of islands) {
      const prefix = island.attributes['data-prefix'] ?? '';
      const ids = idsIn(island.inner);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect(withoutMarker(id).startsWith(prefix)).toBe(true);
      all.push(...ids);
    }
    // No id repeats on the page, though every island is its own React root.
    expect(new Set(all).size).toBe(all.length);
    // The menu button points at its own panel.
    const first = islands[0]?.inner ?? '';
    const controls = /aria-controls="([^"]+)"/.exec(first)?.[1];
    expect(controls).toBeDefined();
    expect(idsIn(first)).toContain(controls);
  });

  it('numbers islands afresh in every page render', () => {
    const again = renderToString(
      <IslandScope components={components}>
        <Island name="site-header" props={headerProps()} lang="fi" />
      </IslandScope>,
    );
    expect(only(again).attributes['data-prefix']).toBe(islands[0]?.attributes['data-prefix']);
  });

  it('refuses an island outside <IslandScope>', () => {
    expect(() =>
      renderToString(<Island name="site-header" props={headerProps()} lang="fi" />),
    ).toThrow(/outside <IslandScope>/);
  });
});

describe('<Island> markup matches what the browser hydrates', () => {
  function standalone<P extends object>(
    Component: (props: P) => ReactNode,
    props: P,
    lang: Lang,
    prefix: string,
  ): string {
    return renderToString(
      <IslandRoot lang={lang} t={serverT(lang)}>
        <Component {...props} />
      </IslandRoot>,
      { identifierPrefix: prefix },
    );
  }

  it.each(['fi', 'sv', 'en'] as const)('SiteHeader in %s', (lang) => {
    const props = headerProps([
      { href: '/tuotteet', label: 'Tuotteet' },
      { href: '/reseptit', label: 'Reseptit' },
    ]);
    const html = renderToString(
      <IslandScope components={components}>
        <Island name="site-search" props={{ label: 'first' } as never} lang={lang} />
        <Island name="site-header" props={props} lang={lang} />
      </IslandScope>,
    );
    const island = parseIslands(html)[1];
    expect(island).toBeDefined();
    const prefix = island?.attributes['data-prefix'] ?? '';
    const parsedProps = JSON.parse(island?.attributes['data-props'] ?? 'null') as SiteHeaderProps;
    expect(island?.inner).toBe(standalone(SiteHeader, parsedProps, lang, prefix));
    // The island speaks its language.
    expect(island?.inner).toContain(serverT(lang)('layout.mainNavigation'));
  });

  it('a local component with two ids', () => {
    const html = renderToString(
      <IslandScope components={components}>
        <Island name="site-search" props={{ label: 'a & b' } as never} lang="sv" />
      </IslandScope>,
    );
    const island = only(html);
    const prefix = island.attributes['data-prefix'] ?? '';
    expect(island.inner).toBe(standalone(Labelled, { label: 'a & b' }, 'sv', prefix));
    // Another prefix gives other ids, so the prefix really is what ties the two renders together.
    expect(island.inner).not.toBe(standalone(Labelled, { label: 'a & b' }, 'sv', 'other-'));
  });
});

describe('<Island> names', () => {
  it('take the props of their own component only', () => {
    // @ts-expect-error the header's props, not another component's, go with its name
    const wrong = <Island name="site-header" props={{ label: 'x' }} lang="fi" />;
    expect(wrong.props.name).toBe('site-header');
  });

  it('must be in the registry the page renders with', () => {
    expect(() =>
      renderToString(
        <IslandScope components={{}}>
          <Island name="site-header" props={headerProps()} lang="fi" />
        </IslandScope>,
      ),
    ).toThrow(/not in the registry/);
  });
});
