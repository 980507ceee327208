import type { Block } from '../src/features/content/blocks.ts';
import type { Lang } from '../src/sites/types.ts';
import type { SiteLang } from './context.ts';
import { mapRegions } from './vocabulary/corporate.ts';
import type { PlantKey } from './vocabulary/types.ts';

/**
 * The widget blocks of the corporate sites' pages (issue 16): the timeline on the history page,
 * the map on the plants page, the jobs listing and the section's tabs on the careers pages, an
 * expandable list of reports, the hero video and figures on the company page, a video in a
 * dialog on the working-here page, and the school material page's parts before its order form.
 */
type Texts = Record<Lang, string>;
const tx = (s: SiteLang, texts: Texts) => texts[s.lang];

const VIDEO = '/media/kattaus-demo.webm';

/** Where the plants are (the towns' centres, rounded): the map widget's markers. */
const PLANT_PLACES: Record<PlantKey, { lat: number; lon: number }> = {
  forssa: { lat: 60.81, lon: 23.62 },
  seinajoki: { lat: 62.79, lon: 22.84 },
  sakyla: { lat: 61.04, lon: 22.34 },
  kuopio: { lat: 62.89, lon: 27.68 },
  vantaa: { lat: 60.29, lon: 25.04 },
  halmstad: { lat: 56.67, lon: 12.86 },
  skara: { lat: 58.39, lon: 13.44 },
  kristianstad: { lat: 56.03, lon: 14.16 },
};

export function widgetBlocks(
  key:
    | 'company'
    | 'companyHistory'
    | 'companyPlants'
    | 'careersTab'
    | 'careersOpenings'
    | 'careersWorking'
    | 'respReports',
) {
  return (s: SiteLang): Block[] => {
    switch (key) {
      case 'company':
        return [
          {
            type: 'hero-video',
            src: VIDEO,
            text: tx(s, {
              fi: 'Kattaus-konsernin tuotantoa ja tuotteita',
              sv: 'Produktion och produkter inom Kattaus-koncernen',
              en: 'Production and products of the Kattaus group',
            }),
          },
          {
            type: 'number-animation',
            header: tx(s, {
              fi: 'Kattaus lukuina',
              sv: 'Kattaus i siffror',
              en: 'Kattaus in figures',
            }),
            items: [
              {
                value: 6800,
                label: tx(s, { fi: 'työntekijää', sv: 'anställda', en: 'employees' }),
              },
              {
                value: 14,
                label: tx(s, {
                  fi: 'tuotantolaitosta',
                  sv: 'produktionsanläggningar',
                  en: 'production plants',
                }),
              },
              {
                value: 1200,
                label: tx(s, {
                  fi: 'sopimustuottajaa',
                  sv: 'kontraktsproducenter',
                  en: 'contract farmers',
                }),
              },
              {
                value: 98,
                label: tx(s, { fi: 'kotimaista lihaa', sv: 'inhemskt kött', en: 'domestic meat' }),
                suffix: ' %',
              },
            ],
          },
        ];
      case 'companyHistory':
        return [{ type: 'timeline', window: 5 }];
      case 'companyPlants':
        // The regions are numbered in the seed's order (seed/widgets.ts); each marks its plant.
        return [
          {
            type: 'map',
            places: mapRegions[s.site.id === 'konsernifi' ? 'fi' : 'se'].map((r, i) => ({
              number: i + 1,
              ...PLANT_PLACES[r.plant],
            })),
          },
        ];
      case 'careersOpenings':
        return [{ type: 'page-tabs' }, { type: 'jobs', pageSize: 10 }];
      case 'careersTab':
        return [{ type: 'page-tabs' }];
      case 'careersWorking':
        return [
          { type: 'page-tabs' },
          {
            type: 'video-modal',
            src: VIDEO,
            title: tx(s, {
              fi: 'Työpäivä Kattauksella',
              sv: 'En arbetsdag på Kattaus',
              en: 'A working day at Kattaus',
            }),
          },
        ];
      case 'respReports': {
        const name = tx(s, {
          fi: 'Vastuullisuusraportti',
          sv: 'Hållbarhetsrapport',
          en: 'Sustainability report',
        });
        return [
          {
            type: 'expandable-list',
            header: tx(s, { fi: 'Raporttiarkisto', sv: 'Rapportarkiv', en: 'Report archive' }),
            items: Array.from({ length: 21 }, (_, i) => {
              const year = 2025 - i;
              return {
                text: `${name} ${year}`,
                link: `https://materials.kattaus.example/${s.lang}/reports/${year}.pdf`,
              };
            }),
          },
        ];
      }
    }
  };
}

/** The school material page's parts (spec shop-and-widgets §2), before the order form. */
export function schoolBlocks(s: SiteLang): Block[] {
  return [
    {
      type: 'school-header',
      header: tx(s, {
        fi: 'Ruoka, eläimet ja ilmasto – oppimateriaalia kouluille',
        sv: 'Mat, djur och klimat – läromedel för skolor',
        en: 'Food, animals and climate – materials for schools',
      }),
      text: tx(s, {
        fi: 'Maksuttomat materiaalit yläkoulun ja lukion kotitalouden, biologian ja maantiedon tunneille.',
        sv: 'Kostnadsfria material för lektioner i hemkunskap, biologi och geografi.',
        en: 'Free materials for home economics, biology and geography lessons.',
      }),
    },
    {
      type: 'flip-card',
      question: tx(s, {
        fi: 'Kuinka monta litraa vettä kuluu yhden broilerin kasvattamiseen?',
        sv: 'Hur många liter vatten går det åt för att föda upp en broiler?',
        en: 'How many litres of water does raising one broiler take?',
      }),
      answer: tx(s, {
        fi: 'Noin 10 litraa juomavettä kasvatuskauden aikana. Suurin osa ruoantuotannon vesijalanjäljestä syntyy rehun viljelystä.',
        sv: 'Ungefär 10 liter dricksvatten under uppfödningen. Det mesta av vattenavtrycket kommer från foderodlingen.',
        en: 'About 10 litres of drinking water while it grows. Most of the water footprint comes from growing the feed.',
      }),
    },
    {
      type: 'slider',
      header: tx(s, {
        fi: 'Kuvia tiloilta',
        sv: 'Bilder från gårdarna',
        en: 'Pictures from the farms',
      }),
      slides: [
        {
          Url: '/media/kattaus-demo.webm',
          IsVideo: true,
          alt: tx(s, {
            fi: 'Video tuotannosta',
            sv: 'Video från produktionen',
            en: 'Video of production',
          }),
        },
        {
          Url: '/images/1/image.jpg?preset=card-wide',
          IsVideo: false,
          alt: tx(s, {
            fi: 'Kuva tuotannosta',
            sv: 'Bild från produktionen',
            en: 'Picture of production',
          }),
        },
      ],
    },
    {
      type: 'school-vote',
      voteId: `school-${s.lang}-protein`,
      question: tx(s, {
        fi: 'Mikä proteiininlähde on mielestäsi tulevaisuuden tärkein?',
        sv: 'Vilken proteinkälla tror du blir viktigast i framtiden?',
        en: 'Which source of protein will matter most in the future?',
      }),
      options: [
        {
          Title: tx(s, { fi: 'Kotimainen liha', sv: 'Inhemskt kött', en: 'Domestic meat' }),
          Text: tx(s, {
            fi: 'Kotimaisessa lihantuotannossa eläinten hyvinvointia ja antibioottien käyttöä valvotaan tarkasti.',
            sv: 'I den inhemska köttproduktionen övervakas djurens välfärd och antibiotikaanvändning noga.',
            en: 'Domestic meat production closely monitors animal welfare and the use of antibiotics.',
          }),
        },
        {
          Title: tx(s, {
            fi: 'Kasviproteiinit',
            sv: 'Vegetabiliska proteiner',
            en: 'Plant proteins',
          }),
          Text: tx(s, {
            fi: 'Palkokasvit sitovat typpeä maaperään ja niiden ilmastovaikutus on pieni.',
            sv: 'Baljväxter binder kväve i marken och har en liten klimatpåverkan.',
            en: 'Legumes fix nitrogen in the soil and have a small climate impact.',
          }),
        },
        {
          Title: tx(s, { fi: 'Kala', sv: 'Fisk', en: 'Fish' }),
          Text: tx(s, {
            fi: 'Kotimainen kala on hyvä rasvahappojen lähde, ja vajaasti hyödynnettyjä lajeja riittää.',
            sv: 'Inhemsk fisk är en bra källa till fettsyror, och det finns gott om underutnyttjade arter.',
            en: 'Domestic fish is a good source of fatty acids, and under-used species are plentiful.',
          }),
        },
      ],
    },
    {
      type: 'school-video',
      src: VIDEO,
      title: tx(s, {
        fi: 'Video: tilalta pöytään',
        sv: 'Video: från gård till bord',
        en: 'Video: from farm to table',
      }),
    },
    { type: 'school-materials' },
  ];
}
