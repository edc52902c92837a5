/** What the sign-in page says above the form, if anything. */
export type LoginNotice = 'wrong' | 'limited' | 'signed-out' | 'origin' | null;

/** The sign-in page's languages: German (the product's first), English. */
export type LoginLang = 'de' | 'en';

/**
 * The language of the sign-in page: the first of German and English in the browser's
 * Accept-Language (by its weights), German when it names neither. The app reads the browser's
 * languages the same way (i18n/index.ts browserLang) until the admin picks one in its header.
 */
export function loginLang(acceptLanguage: string | undefined): LoginLang {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { lang: tag.split('-')[0]!, q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => (r.lang === 'de' || r.lang === 'en') && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return ranked[0]?.lang === 'en' ? 'en' : 'de';
}

const TEXTS = {
  de: { title: 'PagePulse – Anmeldung', area: 'Verwaltung', password: 'Passwort', submit: 'Anmelden' },
  en: { title: 'PagePulse – Sign in', area: 'Admin', password: 'Password', submit: 'Sign in' },
} as const;

/** The admin area's icon (served as a file: the admin CSP allows images from 'self' only, no data: URLs). */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/><path d="M4 17h6l3-8 5 15 3-7h7" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>
`;

const NOTICES: Record<Exclude<LoginNotice, null>, [de: string, en: string]> = {
  wrong: ['Das Passwort ist falsch.', 'Wrong password.'],
  limited: ['Zu viele Fehlversuche. Bitte warten Sie eine Minute.', 'Too many failed attempts. Please wait a minute.'],
  'signed-out': ['Sie sind abgemeldet.', 'You are signed out.'],
  origin: ['Die Anfrage kam nicht von dieser Seite.', 'The request did not come from this site.'],
};

/**
 * The sign-in page: a plain form post, no script, so it works without JavaScript and under the
 * admin CSP. In one language, the browser's (loginLang): the admin has not chosen one yet.
 */
export function loginPage(notice: LoginNotice, lang: LoginLang = 'de'): string {
  const text = TEXTS[lang];
  const message = notice
    ? `<p class="notice" id="notice" role="${notice === 'signed-out' ? 'status' : 'alert'}">${NOTICES[notice][lang === 'de' ? 0 : 1]}</p>`
    : '';
  // an alert present at load is not read by every screen reader: the field (focused at load) names it
  const invalid = notice === 'wrong' || notice === 'limited' ? ' aria-invalid="true" aria-describedby="notice"' : '';
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${text.title}</title>
<link rel="icon" href="/admin/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/admin/login.css">
</head>
<body>
<main class="card">
<h1>PagePulse <span>${text.area}</span></h1>
${message}
<form method="post" action="/admin/login">
<label for="password">${text.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus${invalid}>
<button type="submit">${text.submit}</button>
</form>
</main>
</body>
</html>
`;
}

/** The sign-in page's styles, served as a file: the admin CSP allows no inline style. */
export const LOGIN_CSS = `*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;font:16px/1.5 system-ui,sans-serif;background:#f3f4f6;color:#1f2937}
.card{width:min(100% - 2rem,24rem);background:#fff;border-radius:12px;padding:2rem;box-shadow:0 4px 24px rgb(0 0 0/.08)}
h1{margin:0 0 1.5rem;font-size:1.5rem}h1>span{display:block;font-size:1rem;font-weight:400;color:#4b5563}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid #6b7280;border-radius:6px}
input:focus-visible,button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
button{margin-top:1rem;width:100%;font:inherit;font-weight:600;padding:.65rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer}
button:hover{background:#1e40af}
.notice{padding:.6rem .75rem;border-radius:6px;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}
`;
