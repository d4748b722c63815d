import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { createStorage } from '.';

const base = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/portal-config-test' };

describe('artifact storage configuration', () => {
  it('keeps artifacts in the local folder unless S3_BUCKET is set', () => {
    const config = loadConfig(base);
    expect(config.s3).toBeNull();
    expect(config.artifactsDir).toBe('/tmp/portal-config-test/artifacts');
    expect(createStorage(config).kind).toBe('local');
  });

  it('reads the S3 settings, with a 60-second presigned URL by default', () => {
    const config = loadConfig({
      ...base,
      S3_BUCKET: 'portal-artifacts',
      S3_ENDPOINT: 'https://s3.example.com',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.s3).toEqual({
      bucket: 'portal-artifacts',
      endpoint: 'https://s3.example.com',
      region: 'eu-west-3',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
    });
    expect(config.s3PresignSeconds).toBe(60);
    expect(createStorage(config).kind).toBe('s3');
    expect(loadConfig({ ...base, S3_BUCKET: 'bkt', S3_PRESIGN_SECONDS: '300' }).s3PresignSeconds).toBe(300);
  });

  it.each([
    [{ S3_BUCKET: 'Not_A_Bucket' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'bkt', S3_ENDPOINT: 'not a url' }, 'S3_ENDPOINT'],
    [{ S3_BUCKET: 'bkt', S3_ACCESS_KEY_ID: 'id' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together'],
    [{ S3_BUCKET: 'bkt', S3_PRESIGN_SECONDS: '0' }, 'S3_PRESIGN_SECONDS'],
    [{ S3_BUCKET: 'bkt', S3_FORCE_PATH_STYLE: 'maybe' }, 'S3_FORCE_PATH_STYLE'],
  ])('refuses %j naming the problem', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, ...env })).toThrow(message);
  });
});
