/** What the descriptions name that only the running collector knows. */
export interface SiteFacts {
  /** Host (and port) of this site, the domain the demo's cookies and scripts come from. */
  host: string;
  /** Name of the collector's session cookie. */
  sessionCookie: string;
  /** Seconds between heartbeats, as configured. */
  refreshSeconds: number;
}

interface Entry {
  name: string;
  purpose: string;
  lifetime: string;
}

interface Category {
  title: string;
  summary: string;
  entries: (site: SiteFacts) => Entry[];
}

/** Text of com_gdpr's four categories, in German like the rest of the site. */
const CATEGORIES: Record<number, Category> = {
  1: {
    title: 'Notwendig',
    summary:
      'Notwendige Cookies sind für den Betrieb der Website erforderlich, etwa um Ihre Cookie-Einstellungen zu speichern. Sie lassen sich nicht deaktivieren.',
    entries: (site) => [
      {
        name: 'cookieconsent_status',
        purpose: 'Speichert Ihre Entscheidung im Cookie-Hinweis (zugestimmt, abgelehnt oder geschlossen).',
        lifetime: '365 Tage',
      },
      {
        name: 'cookieconsent_categories',
        purpose: 'Speichert, welche Cookie-Kategorien Sie aktiviert haben.',
        lifetime: '365 Tage',
      },
      {
        name: site.sessionCookie,
        purpose:
          'Sitzungs-Cookie: ordnet Ihre Anfragen während eines Besuchs einander zu, etwa für das Kontaktformular und das Protokoll Ihrer Einwilligungen.',
        lifetime: 'bis zum Schließen des Browsers',
      },
    ],
  },
  2: {
    title: 'Präferenzen',
    summary:
      'Präferenz-Cookies ermöglichen es der Website, sich an Einstellungen zu erinnern, die ihr Aussehen oder Verhalten verändern, zum Beispiel die bevorzugte Sprache.',
    entries: () => [],
  },
  3: {
    title: 'Statistiken',
    summary:
      'Statistik-Cookies helfen uns zu verstehen, wie Besucherinnen und Besucher die Website nutzen. Die Informationen werden ohne Bezug zu Ihrer Person ausgewertet.',
    entries: (site) => [
      {
        name: 'Besucherstatistik (index.php?option=com_jrealtimeanalytics)',
        purpose: `Meldet alle ${site.refreshSeconds} Sekunden die aufgerufene Seite an unseren eigenen Server, zählt die Besucher online und speichert Klickpositionen für eine Heatmap. Setzt keine eigenen Cookies, sondern nutzt das Sitzungs-Cookie.`,
        lifetime: 'Dauer des Besuchs',
      },
      {
        name: 'Analyse-Tag (analytics-tag.js)',
        purpose: 'Zählt Seitenaufrufe für unsere Statistik-Property.',
        lifetime: 'setzt in dieser Demo keine Cookies',
      },
    ],
  },
  4: {
    title: 'Marketing',
    summary:
      'Marketing-Cookies werden verwendet, um die Wirkung unserer Werbung zu messen. Eingebettete Videos werden erst geladen, wenn Sie dieser Kategorie zustimmen.',
    entries: () => [
      {
        name: 'Werbepixel (ad-pixel.js)',
        purpose: 'Meldet den Seitenaufruf (PageView) an das Werbenetzwerk, um Kampagnen auszuwerten.',
        lifetime: 'setzt in dieser Demo keine Cookies',
      },
      {
        name: 'Studio-Video (eingebetteter Videoplayer)',
        purpose: 'Lädt den Player mit unserem Studio-Rundgang. Videoplattformen setzen dabei üblicherweise eigene Cookies.',
        lifetime: 'setzt in dieser Demo keine Cookies',
      },
    ],
  },
};

/** Every category number com_gdpr knows. */
export const CATEGORY_NUMBERS: readonly number[] = Object.keys(CATEGORIES).map(Number);

/**
 * The German HTML fragment describing category `n` (null when unknown), written with only the tags
 * the bundle's sanitizer keeps (protocol section 5), every text escaped.
 */
export function describeCategory(n: number, site: SiteFacts): string | null {
  const category = CATEGORIES[n];
  if (!category) return null;
  const entries = category.entries(site);
  const list = entries.length
    ? `<ul>${entries
        .map(
          (e) =>
            `<li><strong>${escape(e.name)}</strong>: ${escape(e.purpose)} <em>Speicherdauer: ${escape(e.lifetime)}</em></li>`,
        )
        .join('')}</ul>`
    : '<p>Derzeit setzt diese Website in dieser Kategorie keine Cookies.</p>';
  const domains = entries.length ? `<p><strong>Domains:</strong></p><ul><li>${escape(site.host)} (diese Website)</li></ul>` : '';
  return (
    `<div class="cookie-category"><p><strong>${escape(category.title)}</strong></p><p>${escape(category.summary)}</p>` +
    `<fieldset><legend>Cookies und Dienste</legend>${list}</fieldset>${domains}</div>`
  );
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
