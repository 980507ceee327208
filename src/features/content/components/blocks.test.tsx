import { renderToString } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadIslands } from '../../../app/islands.ts';
import { serverT } from '../../../i18n/catalogues.ts';
import { IslandScope, type ResolvedIslands } from '../../../render/island.server.tsx';
import { PageProvider } from '../../../render/page-context.tsx';
import { getSite } from '../../../sites/registry.ts';
import { pageBlocks } from '../blocks.ts';
import { Blocks } from './blocks.tsx';

let islands: ResolvedIslands;
beforeAll(async () => {
  islands = await loadIslands();
});

function render(siteId: string, blocks: unknown, contentId?: string): string {
  const site = getSite(siteId);
  if (!site) throw new Error(`${siteId} is a site`);
  const lang = site.languages[0];
  return renderToString(
    <PageProvider value={{ site, lang, t: serverT(lang), path: '/', siteHref: (id) => `/${id}` }}>
      <IslandScope components={islands}>
        <Blocks blocks={pageBlocks.parse(blocks)} images={new Map()} contentId={contentId} />
      </IslandScope>
    </PageProvider>,
  );
}

/** The props of the page's first island of a name, as the browser will read them. */
function islandProps(html: string, name: string): Record<string, unknown> {
  const tag = new RegExp(`<k-island data-name="${name}"[^>]*data-props="([^"]*)"`).exec(html);
  if (!tag?.[1]) throw new Error(`no ${name} island`);
  return JSON.parse(tag[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
}

describe('the form block', () => {
  const exportBlock = {
    type: 'form',
    form: 'export-contact',
    successMessage: 'Thank you! Our export team answers within two working days.',
    errorMessage: 'Sending failed: write to export@example.com & we answer.',
    contentId: 4711,
  };

  it('gives the export contact form its configured success and error texts and ContentId (spec forms §2.9, §3)', () => {
    const html = render('export', [exportBlock]);
    expect(islandProps(html, 'form-export-contact')).toEqual({
      successMessage: exportBlock.successMessage,
      errorMessage: exportBlock.errorMessage,
      contentId: 4711,
    });
  });

  it('sends the ContentId of the page it is on unless the block names one (spec forms §3)', () => {
    const plain = { type: 'form', form: 'export-contact' };
    expect(islandProps(render('export', [plain], 'page-12'), 'form-export-contact')).toEqual({
      contentId: 'page-12',
    });
    const named = render('export', [exportBlock], 'page-12');
    expect(islandProps(named, 'form-export-contact').contentId).toBe(4711);
    // The other forms send no ContentId.
    const retail = render('sibylla', [{ type: 'form', form: 'retail-contact' }], 'page-12');
    expect(islandProps(retail, 'form-retail-contact')).not.toHaveProperty('contentId');
  });

  it('passes nothing the block does not configure', () => {
    const html = render('export', [{ type: 'form', form: 'export-contact' }]);
    expect(islandProps(html, 'form-export-contact')).toEqual({});
    // ContentId 0 is a value, not an absence.
    const zero = render('export', [{ type: 'form', form: 'export-contact', contentId: 0 }]);
    expect(islandProps(zero, 'form-export-contact')).toEqual({ contentId: 0 });
  });

  it('refuses those settings on the other forms, and empty texts', () => {
    const { successMessage, errorMessage, contentId } = exportBlock;
    for (const extra of [{ successMessage }, { errorMessage }, { contentId }]) {
      expect(pageBlocks.safeParse([{ type: 'form', form: 'question', ...extra }]).success).toBe(
        false,
      );
    }
    expect(
      pageBlocks.safeParse([{ type: 'form', form: 'export-contact', successMessage: ' ' }]).success,
    ).toBe(false);
    expect(
      pageBlocks.safeParse([{ type: 'form', form: 'export-contact', contentId: -1 }]).success,
    ).toBe(false);
  });
});
