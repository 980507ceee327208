import '@vitejs/plugin-react/preamble';
import type { ComponentType } from 'react';
import { type HeldPresses, holdPresses } from '../client/held-presses.ts';
import { afterFirstPaint, triggers } from '../client/triggers.ts';
import { makeZodJitless } from '../client/zod-jitless.ts';
import type { Messages } from '../i18n/fi.ts';
import { knownLang, translator } from '../i18n/translate.ts';
import { VISITOR_SCRIPT_ID } from '../render/holes.ts';
import { ISLAND_TAG } from '../render/island-tag.ts';
import type { Lang } from '../sites/types.ts';
import { islands } from './islands.ts';

// Before any island's code loads: no eval probe by zod against the CSP (see the module).
makeZodJitless();

/**
 * The browser entry: finds the server-rendered islands and hydrates each one when its trigger
 * fires. React, the island's code and the language's texts load only then.
 */
const catalogues: Record<Lang, () => Promise<Messages>> = {
  fi: () => import('../i18n/fi.ts').then((m) => m.fi),
  sv: () => import('../i18n/sv.ts').then((m) => m.sv),
  en: () => import('../i18n/en.ts').then((m) => m.en),
};

/**
 * Islands that load only their own texts, not the whole catalogue: those that hydrate on load,
 * where every kB counts (the JavaScript budget, `tests/e2e/js-budget.spec.ts`). Each names the
 * key prefixes of every text it and its imports show (`virtual:catalogue/<lang>/<prefixes>`,
 * vite.config.ts); a text outside them would show as its key. The lunch menu (on idle) loads
 * its part too: its texts are a small share of the catalogue (decision 042).
 */
const catalogueParts: Partial<Record<string, Record<Lang, () => Promise<Partial<Messages>>>>> = {
  'hero-carousel': {
    fi: () => import('virtual:catalogue/fi/carousel.,hero.').then((m) => m.default),
    sv: () => import('virtual:catalogue/sv/carousel.,hero.').then((m) => m.default),
    en: () => import('virtual:catalogue/en/carousel.,hero.').then((m) => m.default),
  },
  'lunch-menu': {
    fi: () => import('virtual:catalogue/fi/lunchMenu.,validation.').then((m) => m.default),
    sv: () => import('virtual:catalogue/sv/lunchMenu.,validation.').then((m) => m.default),
    en: () => import('virtual:catalogue/en/lunchMenu.,validation.').then((m) => m.default),
  },
  'shop-buy-control': {
    fi: () => import('virtual:catalogue/fi/shop.buy.').then((m) => m.default),
    sv: () => import('virtual:catalogue/sv/shop.buy.').then((m) => m.default),
    en: () => import('virtual:catalogue/en/shop.buy.').then((m) => m.default),
  },
  'shop-card-buy': {
    fi: () => import('virtual:catalogue/fi/shop.buy.').then((m) => m.default),
    sv: () => import('virtual:catalogue/sv/shop.buy.').then((m) => m.default),
    en: () => import('virtual:catalogue/en/shop.buy.').then((m) => m.default),
  },
  'like-button': {
    fi: () => import('virtual:catalogue/fi/likes.').then((m) => m.default),
    sv: () => import('virtual:catalogue/sv/likes.').then((m) => m.default),
    en: () => import('virtual:catalogue/en/likes.').then((m) => m.default),
  },
  'recipe-banner': {
    fi: () => import('virtual:catalogue/fi/recipeBanner.').then((m) => m.default),
    sv: () => import('virtual:catalogue/sv/recipeBanner.').then((m) => m.default),
    en: () => import('virtual:catalogue/en/recipeBanner.').then((m) => m.default),
  },
};

async function hydrate(element: HTMLElement, held: HeldPresses): Promise<void> {
  const name = element.dataset.name as keyof typeof islands;
  const lang = knownLang(element.dataset.lang ?? 'fi');
  const load = islands[name];
  if (!load) throw new Error(`Unknown island "${name}"`);
  const [Component, { createElement }, { hydrateRoot }, messages, { IslandRoot }] =
    await Promise.all([
      load(),
      import('react'),
      import('react-dom/client'),
      (catalogueParts[name]?.[lang] ?? catalogues[lang])() as Promise<Messages>,
      import('../render/island-root.tsx'),
    ]);
  const props = JSON.parse(element.dataset.props ?? '{}') as Record<string, unknown>;
  // The visitor's own part of the props stands once in the page, apart from the shared markup
  // (decision 157).
  if (element.hasAttribute('data-visitor')) props.visitor = pageVisitor();
  const onHydrated = () => {
    element.setAttribute('data-hydrated', '');
    void held.replay();
  };
  const island = createElement(Component as ComponentType<object>, props);
  // Each island starts in a task of its own, so islands whose code arrives together do not run
  // back to back in one long task.
  await yieldToMain();
  held.stop();
  // Not in a transition (decision 056): a transition's hydration of an island in view at load
  // could wait without end behind the page's other work, and the island never came alive.
  hydrateRoot(
    element,
    createElement(IslandRoot, {
      lang,
      t: translator(messages, lang),
      onHydrated,
      children: island,
    }),
    {
      identifierPrefix: element.dataset.prefix ?? '',
    },
  );
}

let visitor: unknown;

/** The page's visitor data (`#k-visitor`), read once. */
function pageVisitor(): unknown {
  visitor ??= JSON.parse(document.getElementById(VISITOR_SCRIPT_ID)?.textContent || '{}');
  return visitor;
}

/** Ends the current task: `scheduler.yield()` where the browser has it, else a new macrotask. */
function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function start(): void {
  for (const element of document.querySelectorAll<HTMLElement>(`${ISLAND_TAG}[data-name]`)) {
    const trigger = triggers[element.dataset.hydrate ?? 'load'] ?? triggers.load;
    // Kept from now until hydration starts: a press on a script-only button is not lost.
    const held = holdPresses(element);
    trigger?.(element, () => {
      hydrate(element, held).catch((error: unknown) => {
        held.stop();
        console.error('island failed to hydrate', error);
      });
    });
  }
}

afterFirstPaint(start);
