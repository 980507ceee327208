import type { Seeding, SiteLang } from './context.ts';
import { daysFromEpoch } from './model.ts';
import { slugify } from './text.ts';
import { jobs, mapRegions, schoolMaterials, timeline } from './vocabulary/corporate.ts';

/** When the widgets' rows were written, as the back office shows them (decision 171). */
const SEEDED = daysFromEpoch(-60, 7);

/**
 * Data of the corporate widgets: open positions, the history timeline, school materials and the
 * map of plants. Application periods end 8 to 20 months after the epoch, so the listings stay
 * open in demos for a good while.
 */
export async function seedWidgets(seeding: Seeding, s: SiteLang) {
  if (!s.site.corporate) return;
  const { content } = seeding;
  const siteId = s.site.id;
  const lang = s.lang;
  (jobs[lang] ?? []).forEach(([title, city], i) => {
    content.add('jobs', {
      siteId,
      lang,
      title,
      city,
      url: `https://careers.kattaus.example/${lang}/jobs/${1000 + i}-${slugify(title)}`,
      applicationPeriodEnd: daysFromEpoch(240 + ((i * 37) % 360), 21),
      updatedAt: SEEDED,
    });
  });
  for (const entry of timeline) {
    const text = entry.texts[lang];
    if (!text) continue;
    const imageId = await seeding.images.get({
      kind: 'card',
      seed: `timeline:${entry.year}`,
      alt: Object.fromEntries(
        Object.entries(entry.texts).map(([l, t]) => [l, `${entry.year}: ${t.title}`]),
      ),
    });
    content.add('timelineYears', {
      siteId,
      lang,
      year: entry.year,
      title: text.title,
      text: text.text,
      imageId,
      updatedAt: SEEDED,
    });
  }
  (schoolMaterials[lang] ?? []).forEach(([material, description, topic], i) => {
    if (siteId === 'konsernifi' ? lang !== 'fi' : lang !== 'sv') return;
    content.add('schoolMaterials', {
      siteId,
      lang,
      material,
      url: `https://materials.kattaus.example/${lang}/${slugify(material)}.pdf`,
      description,
      topic,
      sortOrder: i,
      updatedAt: SEEDED,
    });
  });
  const regions = mapRegions[siteId === 'konsernifi' ? 'fi' : 'se'];
  regions.forEach((r, i) => {
    content.add('mapRegions', {
      siteId,
      lang,
      number: i + 1,
      buttonLabel: s.v.plants[r.plant].name,
      buttonRegion: r.region[lang] ?? r.region.en ?? '',
      buttonInfo: r.info[lang] ?? r.info.en ?? '',
      updatedAt: SEEDED,
    });
  });
}
