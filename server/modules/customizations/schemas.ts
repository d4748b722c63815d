import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ConfigProblem } from '../../../common/api/customizations';
import type { CustomizationType } from '../../../common/domain';
import { DEFAULT_LOCALE, type Locale } from '../../../common/roles';
import type { TFunction } from 'i18next';
import { serverT } from '../../i18n';
import lkeSchema from './schemas/lke.schema.json';
import ogmaSchema from './schemas/ogma.schema.json';

/**
 * The JSON Schema of each customization type, shipped with the product (docs/customizations.md):
 * `lke` for the graph visualisation server, `ogma` for the graph visualisation toolkit; `none`
 * offers no customization. Each is compiled once, when the server starts, and reports every
 * problem of a configuration (allErrors), not only the first (docs/decisions/033).
 */
export const CUSTOMIZATION_SCHEMAS = { lke: lkeSchema, ogma: ogmaSchema } as const;
export type CustomizableType = keyof typeof CUSTOMIZATION_SCHEMAS;

export const isCustomizable = (type: CustomizationType): type is CustomizableType => type !== 'none';

const ajv = new Ajv2020({ allErrors: true, strict: true, verbose: true });
addFormats(ajv, ['uri']);

const validators: Record<CustomizableType, ValidateFunction> = {
  lke: ajv.compile(lkeSchema),
  ogma: ajv.compile(ogmaSchema),
};

/** The shared definitions whose patterns have a message of their own (server/i18n `configProblems.patterns`). */
const NAMED_PATTERNS = new Set(['color', 'httpsUrl', 'pluginName', 'semVer', 'domain']);
const NAMED_FORMATS = new Set(['uri']);
const TYPE_NAMES = new Set(['string', 'integer', 'number', 'boolean', 'object', 'array', 'null']);

/** A property name as one JSON Pointer segment (RFC 6901). */
const segment = (name: string) => `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`;

const list = (values: unknown[]) => values.map((value) => JSON.stringify(value)).join(', ');

/**
 * One Ajv error as a problem: the JSON Pointer of the failing value and a message a person reads, in
 * the caller's language.
 */
function problemOf(error: ErrorObject, t: TFunction): ConfigProblem {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  const said = (key: string, values: Record<string, unknown> = {}) => ({
    path: at,
    message: t(`configProblems.${key}`, values),
  });
  switch (error.keyword) {
    case 'required':
      return { path: at + segment(String(params.missingProperty)), message: t('configProblems.required') };
    case 'additionalProperties': {
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return {
        path: at + segment(String(params.additionalProperty)),
        message: known.length
          ? t('configProblems.unknownPropertyKnown', { known: known.join(', ') })
          : t('configProblems.unknownProperty'),
      };
    }
    case 'type': {
      const types = String(params.type)
        .split(',')
        .map((type) => (TYPE_NAMES.has(type) ? t(`configProblems.typeNames.${type}`) : type));
      return said('type', { types: types.join(t('configProblems.or')) });
    }
    case 'enum':
      return said('enum', { values: list(params.allowedValues as unknown[]) });
    case 'pattern': {
      const definition = /#\/\$defs\/([^/]+)\/pattern$/.exec(error.schemaPath)?.[1];
      return definition && NAMED_PATTERNS.has(definition) ? said(`patterns.${definition}`) : said('pattern');
    }
    case 'format': {
      const format = String(params.format);
      return said('format', { format: NAMED_FORMATS.has(format) ? t(`configProblems.formatNames.${format}`) : format });
    }
    case 'minLength':
    case 'maxLength':
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
    case 'minItems':
    case 'maxItems':
      return said(error.keyword, { limit: String(params.limit) });
    case 'uniqueItems':
      return said('uniqueItems', { i: String(params.i), j: String(params.j) });
    default:
      return said('invalid');
  }
}

/**
 * Checks a configuration against its type's schema. Every problem names the JSON Pointer of the
 * failing value ("" for the whole configuration; for a missing or unknown property, the pointer of
 * that property) with a readable message in `locale` (the caller's); one problem is reported once, problems in order of path.
 */
export function validateConfig(
  type: CustomizableType,
  config: unknown,
  locale: Locale = DEFAULT_LOCALE,
): ConfigProblem[] {
  const t = serverT(locale);
  const validate = validators[type];
  if (validate(config)) return [];
  const seen = new Set<string>();
  const problems: ConfigProblem[] = [];
  for (const error of validate.errors ?? []) {
    const problem = problemOf(error, t);
    const key = `${problem.path}\u0000${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
