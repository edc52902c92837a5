// The admin area's entry (vite.admin.config.ts): a React 19 app, never imported by the visitor bundle.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createAnnouncer } from './announcer';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App announcer={createAnnouncer()} />
  </StrictMode>,
);
