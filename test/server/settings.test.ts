import { describe, expect, it } from 'vitest';
import { createCollector } from '../../collector/server/app';
import { defaultCountryDatabase } from '../../collector/server/edge/country';
import { DEFAULT_SETTINGS, loadOptions } from '../../collector/server/options';

const ROOT = '/repo';
const noFile = (): string => {
  throw new Error('no config file expected');
};

describe('collector options', () => {
  it('defaults to 127.0.0.1:5173, the repository database and the component defaults', () => {
    expect(loadOptions({}, noFile, ROOT)).toEqual({
      host: '127.0.0.1',
      port: 5173,
      dbPath: '/repo/.data/pagepulse.sqlite',
      databaseUrl: null,
      workers: 1,
      settings: DEFAULT_SETTINGS,
      adminPassword: null,
      trustProxy: false,
      fullIp: false,
      countryDatabase: defaultCountryDatabase(),
      visitorRate: { burst: 120, perSecond: 20 },
      sites: [],
    });
    expect(defaultCountryDatabase()).toMatch(/node_modules\/@ip-location-db\/dbip-country-mmdb\/dbip-country\.mmdb$/);
  });

  it('names another country database, or none (PAGEPULSE_COUNTRY_DB)', () => {
    expect(loadOptions({ PAGEPULSE_COUNTRY_DB: '/srv/GeoLite2-Country.mmdb' }, noFile, ROOT).countryDatabase).toBe(
      '/srv/GeoLite2-Country.mmdb',
    );
    expect(loadOptions({ PAGEPULSE_COUNTRY_DB: 'off' }, noFile, ROOT).countryDatabase).toBeNull();
  });

  it('reads the environment over the config file', () => {
    const file = JSON.stringify({ port: 8080, daemonrefresh: 5, heatmap_max_valid_width: 400, db: ':memory:' });
    const options = loadOptions(
      {
        PAGEPULSE_CONFIG: 'pp.json',
        PORT: '5199',
        PAGEPULSE_DEBUG: '1',
        PAGEPULSE_DAEMONTIMEOUT: '0.5',
        PAGEPULSE_HEATMAP_MAX_HEIGHT: '80',
      },
      (path) => (path === 'pp.json' ? file : noFile()),
      ROOT,
    );
    expect(options).toEqual({
      host: '127.0.0.1',
      port: 5199,
      dbPath: ':memory:',
      databaseUrl: null,
      workers: 1,
      adminPassword: null,
      trustProxy: false,
      fullIp: false,
      countryDatabase: defaultCountryDatabase(),
      visitorRate: { burst: 120, perSecond: 20 },
      sites: [],
      settings: {
        daemonrefresh: 5,
        enable_debug: 1,
        daemontimeout: 0.5,
        heatmap_max_valid_width: 400,
        heatmap_max_valid_height: 80,
      },
    });
  });

  it('names the variable of a bad value instead of running on a default', () => {
    expect(() => loadOptions({ PORT: 'eighty' }, noFile, ROOT)).toThrow(/PORT/);
    expect(() => loadOptions({ PAGEPULSE_DAEMONREFRESH: '0' }, noFile, ROOT)).toThrow(/PAGEPULSE_DAEMONREFRESH/);
    expect(() => loadOptions({ PAGEPULSE_DEBUG: 'maybe' }, noFile, ROOT)).toThrow(/PAGEPULSE_DEBUG/);
    expect(() => loadOptions({ PAGEPULSE_HEATMAP_MAX_WIDTH: '35.5' }, noFile, ROOT)).toThrow(/PAGEPULSE_HEATMAP_MAX_WIDTH/);
  });

  it('PAGEPULSE_DATABASE_URL: a postgres:// URL selects PostgreSQL; another scheme is refused without echoing it', () => {
    const url = 'postgres://pagepulse:s3cret@db.internal:5432/pagepulse';
    expect(loadOptions({ PAGEPULSE_DATABASE_URL: url }, noFile, ROOT).databaseUrl).toBe(url);
    expect(loadOptions({ PAGEPULSE_DATABASE_URL: 'postgresql://db/pp' }, noFile, ROOT).databaseUrl).toBe('postgresql://db/pp');
    expect(() => loadOptions({ PAGEPULSE_DATABASE_URL: 'mysql://root:hunter2@db/pp' }, noFile, ROOT)).toThrow(
      /^PAGEPULSE_DATABASE_URL must be a postgres:\/\/user:password@host:port\/database URL$/,
    );
  });

  it('PAGEPULSE_SITES: origins, comma-separated (or an array in the file); anything else is refused', () => {
    expect(loadOptions({ PAGEPULSE_SITES: 'https://www.lichtwerk.de, https://lichtwerk.de/' }, noFile, ROOT).sites).toEqual([
      'https://www.lichtwerk.de',
      'https://lichtwerk.de',
    ]);
    expect(loadOptions({ PAGEPULSE_CONFIG: 'pp.json' }, () => '{"sites":["http://a.test:8080"]}', ROOT).sites).toEqual([
      'http://a.test:8080',
    ]);
    for (const bad of ['lichtwerk.de', 'https://lichtwerk.de/blog', 'javascript:alert(1)'])
      expect(() => loadOptions({ PAGEPULSE_SITES: bad }, noFile, ROOT)).toThrow(/PAGEPULSE_SITES must list origins/);
  });

  it('PAGEPULSE_WORKERS: several processes only on PostgreSQL', () => {
    const url = 'postgres://pagepulse@127.0.0.1/pagepulse';
    expect(loadOptions({ PAGEPULSE_WORKERS: '2', PAGEPULSE_DATABASE_URL: url }, noFile, ROOT).workers).toBe(2);
    expect(() => loadOptions({ PAGEPULSE_WORKERS: '2' }, noFile, ROOT)).toThrow(
      /PAGEPULSE_WORKERS above 1 needs PAGEPULSE_DATABASE_URL/,
    );
    expect(() => loadOptions({ PAGEPULSE_WORKERS: '0', PAGEPULSE_DATABASE_URL: url }, noFile, ROOT)).toThrow(/PAGEPULSE_WORKERS/);
  });
});

describe('the admin password', () => {
  it('PAGEPULSE_ADMIN_PASSWORD of fewer than 12 characters is refused, naming the variable', () => {
    for (const short of ['x', '12345678901'])
      expect(() => loadOptions({ PAGEPULSE_ADMIN_PASSWORD: short }, noFile, ROOT)).toThrow(
        /PAGEPULSE_ADMIN_PASSWORD must be at least 12 characters/,
      );
    expect(loadOptions({ PAGEPULSE_ADMIN_PASSWORD: 'zwölf-zeichen' }, noFile, ROOT).adminPassword).toBe('zwölf-zeichen');
  });

  it('a collector given a one-character password does not start', async () => {
    const collector = createCollector({ adminPassword: 'x' });
    await expect(collector.listen()).rejects.toThrow(/at least 12 characters/);
    await collector.close();
  });
});
