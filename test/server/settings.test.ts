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

  it('PAGEPULSE_CONFIG: a key the file does not read is named on the log; the known ones still apply', () => {
    const file = JSON.stringify({
      port: 8080,
      trust_proxy: 1,
      sites: ['https://www.lichtwerk.de'],
      PORT: 9090,
      trustProxy: 0,
      retention: 30,
      constructor: 1,
      PAGEPULSE_DATABASE_URL: 'postgres://pagepulse:s3cret@db/pp',
      databaseUrl: 'postgres://pagepulse:s3cret@db/pp',
      adminPassword: 'zwölf-zeichen-lang',
    });
    const warnings: string[] = [];
    const options = loadOptions(
      { PAGEPULSE_CONFIG: 'pp.json' },
      (path) => (path === 'pp.json' ? file : noFile()),
      ROOT,
      (line) => warnings.push(line),
    );
    expect(options.port).toBe(8080);
    expect(options.trustProxy).toBe(true);
    expect(options.sites).toEqual(['https://www.lichtwerk.de']);
    // the settings the file cannot hold stay unset: SQLite, a generated password
    expect(options.databaseUrl).toBeNull();
    expect(options.adminPassword).toBeNull();
    expect(warnings).toHaveLength(7);
    expect(warnings[0]).toMatch(/^PAGEPULSE_CONFIG pp\.json: key "PORT" ignored: this setting's key in the file is "port"$/);
    expect(warnings[1]).toMatch(/key "trustProxy" ignored: this setting's key in the file is "trust_proxy"$/);
    expect(warnings[2]).toMatch(
      /^PAGEPULSE_CONFIG pp\.json: unknown key "retention" ignored \(the file's keys: host, port, db, .*, sites\)$/,
    );
    expect(warnings[3]).toMatch(/unknown key "constructor" ignored/);
    for (const [line, key] of [
      [warnings[4], 'PAGEPULSE_DATABASE_URL'],
      [warnings[5], 'databaseUrl'],
    ])
      expect(line).toMatch(
        new RegExp(`key "${key}" ignored: the PostgreSQL URL is read from the environment only \\(PAGEPULSE_DATABASE_URL\\)`),
      );
    expect(warnings[6]).toMatch(
      /key "adminPassword" ignored: the admin password is read from the environment only \(PAGEPULSE_ADMIN_PASSWORD\)/,
    );
    // no value is echoed: the file's password and URL stay off the log
    expect(warnings.join('\n')).not.toMatch(/s3cret|zwölf/);
  });

  it('PAGEPULSE_CONFIG: a file of known keys only gives no warning; a file that is not an object is refused', () => {
    const warnings: string[] = [];
    const read = (text: string) => () => text;
    loadOptions({ PAGEPULSE_CONFIG: 'pp.json' }, read('{"host":"0.0.0.0","workers":1}'), ROOT, (line) => warnings.push(line));
    expect(warnings).toEqual([]);
    for (const bad of ['[]', 'null', '"port"'])
      expect(() => loadOptions({ PAGEPULSE_CONFIG: 'pp.json' }, read(bad), ROOT)).toThrow(
        /^PAGEPULSE_CONFIG pp\.json must hold a JSON object of settings$/,
      );
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
