import type { Migration } from './migrate';
import type { Sql } from './sql';

/** The settings area: the site's settings as text by key (`admin_settings`): time zone, retention, the password's hash. */
export const SETTINGS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'settings',
    sql: () => 'CREATE TABLE IF NOT EXISTS admin_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);',
  },
];

/** The settings area on an open database. */
export function settingsStore(sql: Sql) {
  const put = async (on: Sql, key: string, value: string) =>
    void (await on.run(
      'INSERT INTO admin_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value],
    ));
  return {
    get: async (key: string): Promise<string | null> =>
      (await sql.get<{ value: string }>('SELECT value FROM admin_settings WHERE key = ?', [key]))?.value ?? null,
    set: (key: string, value: string) => put(sql, key, value),
    /** Several settings at once, in one transaction. */
    setAll: (values: ReadonlyArray<readonly [string, string]>) =>
      sql.transaction(async (tx) => {
        for (const [key, value] of values) await put(tx, key, value);
      }),
  };
}

export type SettingsStore = ReturnType<typeof settingsStore>;
