import '@vitejs/plugin-react/preamble';
import type { ComponentType } from 'react';
import { type HeldPresses, holdPresses } from '../client/held-presses.ts';
import { afterFirstPaint, triggers } from '../client/triggers.ts';
import { makeZodJitless } from '../client/zod-jitless.ts';
import type { Messages } from '../i18n/fi.ts';
import { knownLang, translator } from '../i18n/translate.ts';
import { VISITOR_SCRIPT_ID } from '../render/holes.ts';
import { ISLAND_TAG } from '../render/island-tag.ts';

// Before any island's code loads: no eval probe by zod against the CSP (see the module).
makeZodJitless();

/**
 * The browser entry: finds the server-rendered islands and hydrates each one when its trigger
 * fires. React, the island's code and its texts load only then, from the modules its element
 * names: its code in `data-code` (decision 161; the entry holds no table of islands), its texts
 * in `data-texts` (the build's `virtual:island-texts/<lang>/<island>`, vite.config.ts; decision
 * 160): each island loads only the texts its modules name, not the catalogue.
 */
async function hydrate(element: HTMLElement, held: HeldPresses): Promise<void> {
  const lang = knownLang(element.dataset.lang ?? 'fi');
  const { code, texts } = element.dataset;
  if (!code || !texts) throw new Error(`Island "${element.dataset.name}" names no code or texts`);
  const [Component, { createElement, hydrateRoot, IslandRoot, pageTexts }, messages] =
    await Promise.all([
      islandComponent(code),
      import('../render/island-runtime.ts'),
      import(/* @vite-ignore */ texts).then((m: { default: Messages }) => m.default),
    ]);
  const props = JSON.parse(element.dataset.props ?? '{}') as Record<string, unknown>;
  // The visitor's own part of the props stands once in the page, apart from the shared markup
  // (decision 157).
  if (element.hasAttribute('data-visitor')) props.visitor = pageVisitor();
  const onHydrated = () => {
    element.setAttribute('data-hydrated', '');
    void held.replay();
  };
  // One set of texts per language for the page: what the island's code loads lazily adds its own.
  const shown = Object.assign(pageTexts(lang), messages) as Messages;
  const island = createElement(Component, props);
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
      t: translator(shown, lang),
      onHydrated,
      children: island,
    }),
    {
      identifierPrefix: element.dataset.prefix ?? '',
    },
  );
}

/**
 * An island's component from the modules its element names (`url#Export`, space-separated):
 * the one export, or for an island of two parts the first part's export given the second's, as
 * the app's registry joins them (`joined` in `app/islands.ts`).
 */
async function islandComponent(code: string): Promise<ComponentType<object>> {
  const [first, second] = await Promise.all(
    code.split(' ').map(async (spec) => {
      const [url = '', name = ''] = spec.split('#');
      const value = ((await import(/* @vite-ignore */ url)) as Record<string, unknown>)[name];
      if (value === undefined) throw new Error(`${url} has no export ${name}`);
      return value;
    }),
  );
  if (second === undefined) return first as ComponentType<object>;
  return (first as (part: unknown) => ComponentType<object>)(second);
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
