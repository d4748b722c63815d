import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CUSTOMIZATION_SCHEMAS, type CustomizableType, validateConfig } from './schemas';

/** The example of each type in docs/customizations.md: the ```json <type> block. */
function documentedExample(type: CustomizableType): Record<string, unknown> {
  const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../docs/customizations.md'), 'utf8');
  const block = new RegExp('```json ' + type + '\\n([\\s\\S]*?)\\n```').exec(doc)?.[1];
  if (!block) throw new Error(`docs/customizations.md has no example of ${type}`);
  return JSON.parse(block) as Record<string, unknown>;
}

const lke = () => structuredClone(documentedExample('lke')) as Record<string, any>;
const ogma = () => structuredClone(documentedExample('ogma')) as Record<string, any>;

/** Every property and item of a schema, with where it is. */
function* subschemas(schema: any, at = ''): Generator<[string, any]> {
  for (const [name, child] of Object.entries<any>(schema.properties ?? {})) {
    yield [`${at}/${name}`, child];
    yield* subschemas(child, `${at}/${name}`);
  }
  if (schema.items) {
    yield [`${at}[]`, schema.items];
    yield* subschemas(schema.items, `${at}[]`);
  }
  for (const [name, child] of Object.entries<any>(schema.$defs ?? {})) {
    yield [`$defs/${name}`, child];
    yield* subschemas(child, `$defs/${name}`);
  }
}

describe('customization schemas', () => {
  it.each(['lke', 'ogma'] as const)('%s: accepts the documented example', (type) => {
    expect(validateConfig(type, documentedExample(type))).toEqual([]);
  });

  it.each(['lke', 'ogma'] as const)('%s: describes every field and refuses unknown properties', (type) => {
    const schema = CUSTOMIZATION_SCHEMAS[type];
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    const undescribed = [...subschemas(schema)].filter(([, child]) => !child.description).map(([at]) => at);
    expect(undescribed).toEqual([]);
    const open = [...subschemas(schema)]
      .filter(([, child]) => child.type === 'object' && child.additionalProperties !== false)
      .map(([at]) => at);
    expect(open).toEqual([]);
  });

  it('accepts the smallest lke configuration: a name and a language', () => {
    expect(validateConfig('lke', { branding: { applicationName: 'Graphs' }, defaultLocale: 'fr' })).toEqual([]);
  });

  it('reports a missing required property at its own path', () => {
    const config = lke();
    delete config.branding.applicationName;
    delete config.defaultLocale;
    expect(validateConfig('lke', config)).toEqual([
      { path: '/branding/applicationName', message: 'is required' },
      { path: '/defaultLocale', message: 'is required' },
    ]);
    expect(validateConfig('ogma', {})).toEqual([{ path: '/domains', message: 'is required' }]);
  });

  it('reports an unknown property at its own path, with the known ones', () => {
    const config = lke();
    config.branding.logo = 'https://cdn.acme.example/logo.svg';
    config['theme'] = 'dark';
    const problems = validateConfig('lke', config);
    expect(problems.map((p) => p.path)).toEqual(['/branding/logo', '/theme']);
    expect(problems[0].message).toMatch(/^is not a known property \(known: applicationName, logoUrl,/);
  });

  it('says each problem in the language asked for, English by default', () => {
    const config = lke();
    delete config.defaultLocale;
    config.branding.primaryColor = 'blue';
    config.limits = { maxUsers: 'many' };
    const paths = (problems: { path: string }[]) => problems.map((p) => p.path);
    const english = validateConfig('lke', config);
    const french = validateConfig('lke', config, 'fr');
    expect(paths(french)).toEqual(paths(english));
    const messageAt = (problems: { path: string; message: string }[], path: string) =>
      problems.find((p) => p.path === path)?.message;
    expect(messageAt(english, '/defaultLocale')).toBe('is required');
    expect(messageAt(french, '/defaultLocale')).toBe('est obligatoire');
    expect(messageAt(french, '/branding/primaryColor')).toBe('doit être une couleur en hexadécimal, comme #1a73e8');
    expect(french.map((p) => p.message).join(' ')).not.toMatch(/\bmust\b|\bis required\b/);
  });

  it('escapes property names in pointers (RFC 6901)', () => {
    const config = lke();
    config.features['a/b~c'] = true;
    expect(validateConfig('lke', config)[0].path).toBe('/features/a~1b~0c');
  });

  it('reports wrong types', () => {
    const config = lke();
    config.limits.maxUsers = '250';
    config.limits.maxDataSources = 2.5;
    config.features.alerts = 'yes';
    config.plugins = { name: 'data-table' };
    expect(validateConfig('lke', config)).toEqual([
      { path: '/features/alerts', message: 'must be true or false' },
      { path: '/limits/maxDataSources', message: 'must be a whole number' },
      { path: '/limits/maxUsers', message: 'must be a whole number' },
      { path: '/plugins', message: 'must be a list' },
    ]);
  });

  it('refuses a configuration that is not an object', () => {
    expect(validateConfig('lke', ['branding'])).toEqual([{ path: '', message: 'must be an object' }]);
  });

  it('refuses colours that are not #rgb or #rrggbb', () => {
    for (const colour of ['red', '#12345', '1a73e8', '#1a73e8ff', 'rgb(0,0,0)']) {
      const config = lke();
      config.branding.primaryColor = colour;
      expect(validateConfig('lke', config)).toEqual([
        { path: '/branding/primaryColor', message: 'must be a colour in hexadecimal form, like #1a73e8' },
      ]);
    }
    const config = ogma();
    config.defaultStyles.node.text.color = 'blue';
    expect(validateConfig('ogma', config)).toEqual([
      { path: '/defaultStyles/node/text/color', message: 'must be a colour in hexadecimal form, like #1a73e8' },
    ]);
  });

  it('refuses URLs that are not absolute https URLs', () => {
    const config = lke();
    config.branding.logoUrl = 'logo.svg';
    config.branding.faviconUrl = 'http://cdn.acme.example/favicon.png';
    expect(validateConfig('lke', config)).toEqual([
      { path: '/branding/faviconUrl', message: 'must be an https:// URL' },
      { path: '/branding/logoUrl', message: 'must be an https:// URL' },
      { path: '/branding/logoUrl', message: 'must be a valid URL' },
    ]);
    const watermark = ogma();
    watermark.watermark.imageUrl = 'javascript:alert(1)';
    expect(validateConfig('ogma', watermark)).toEqual([
      { path: '/watermark/imageUrl', message: 'must be an https:// URL' },
    ]);
  });

  it('refuses values out of a list or a range, and repeated items', () => {
    const config = lke();
    config.defaultLocale = 'english';
    config.limits.maxNodesPerVisualization = 10;
    config.branding.applicationName = '';
    config.plugins.push({ name: 'data-table', version: '2.1.0' });
    const problems = validateConfig('lke', config);
    expect(problems).toContainEqual({
      path: '/branding/applicationName',
      message: 'must be at least 1 characters long',
    });
    expect(problems).toContainEqual({
      path: '/defaultLocale',
      message: 'must be one of "en", "fr", "de", "es", "it", "ja", "ko", "pt", "zh"',
    });
    expect(problems).toContainEqual({
      path: '/plugins',
      message: 'must not repeat an item (items 0 and 2 are the same)',
    });
    expect(problems).toContainEqual({ path: '/limits/maxNodesPerVisualization', message: 'must be at least 100' });
  });

  it('ogma: refuses bad domains, an empty domain list, a watermark without its flag, an opacity above 1', () => {
    const config = ogma();
    config.domains = ['https://graph.acme.example', 'graph.acme.example', 'localhost'];
    delete config.watermark.enabled;
    config.watermark.opacity = 1.5;
    config.defaultStyles.node.radius = 0;
    expect(validateConfig('ogma', config)).toEqual([
      { path: '/defaultStyles/node/radius', message: 'must be more than 0' },
      { path: '/domains/0', message: 'must be a host name like app.example.com or *.example.com' },
      { path: '/domains/2', message: 'must be a host name like app.example.com or *.example.com' },
      { path: '/watermark/enabled', message: 'is required' },
      { path: '/watermark/opacity', message: 'must be at most 1' },
    ]);
    expect(validateConfig('ogma', { domains: [] })).toEqual([
      { path: '/domains', message: 'must hold at least 1 item(s)' },
    ]);
  });
});
