import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, configVariables, loadConfig } from '../src/config.js';
import { variablesRead } from './helpers/variables-read.js';

describe('loadConfig', () => {
  it('lists every variable its readers read, whichever settings are given (configVariables)', () => {
    assert.deepEqual([...variablesRead()].sort(), [...configVariables()].sort());
  });

  it('has working defaults for a laptop: SQLite in ./var, port 8080, no Redis', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.databaseUrl, 'sqlite:./var/app.db');
    assert.equal(c.redisUrl, null);
    assert.equal(c.publicScheme, 'http');
    assert.equal(c.tokenTtlSeconds, 3600);
    assert.equal(c.allowedHosts, null);
  });

  it('is frozen, nested objects included', () => {
    const c = loadConfig({});
    assert.ok(Object.isFrozen(c));
    assert.ok(Object.isFrozen(c.worker));
    assert.throws(() => {
      (c as { port: number }).port = 1;
    }, TypeError);
  });

  it('reads every documented variable', () => {
    const c = loadConfig({
      PORT: '9000',
      DATABASE_URL: 'postgres://u@h:5432/db',
      REDIS_URL: 'redis://127.0.0.1:6379',
      PUBLIC_SCHEME: 'https',
      ALLOWED_HOSTS: 'api.example.com, Other.Example.com',
      TOKEN_TTL_SECONDS: '600',
      LIMIT_LEASE_MS: '250',
      WORKER_ENABLED: 'false',
    });
    assert.equal(c.limitLeaseMs, 250);
    assert.equal(c.port, 9000);
    assert.equal(c.databaseUrl, 'postgres://u@h:5432/db');
    assert.equal(c.redisUrl, 'redis://127.0.0.1:6379');
    assert.equal(c.publicScheme, 'https');
    assert.deepEqual(c.allowedHosts, ['api.example.com', 'other.example.com']);
    assert.equal(c.tokenTtlSeconds, 600);
    assert.equal(c.worker.enabled, false);
  });

  it('bounds each Redis command: 1000 ms unless REDIS_COMMAND_TIMEOUT_MS says otherwise', () => {
    assert.equal(loadConfig({}).redisCommandTimeoutMs, 1000);
    assert.equal(loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '250' }).redisCommandTimeoutMs, 250);
    assert.throws(() => loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '0' }), /REDIS_COMMAND_TIMEOUT_MS/);
  });

  it('reads the Sentinels and the master they monitor, with or without REDIS_URL', () => {
    assert.equal(loadConfig({}).redisSentinel, null);
    const c = loadConfig({
      REDIS_SENTINELS: ' 10.0.0.1:26379, sentinel-b.internal:26380,[::1]:26381, proj_sentinel_1:26379 ',
      REDIS_SENTINEL_MASTER: 'rpa-primary',
    });
    assert.deepEqual(c.redisSentinel, {
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-b.internal', port: 26380 },
        { host: '::1', port: 26381 },
        // A container's name in a compose project holds underscores.
        { host: 'proj_sentinel_1', port: 26379 },
      ],
      masterName: 'rpa-primary',
    });
    assert.equal(c.redisUrl, null);
    assert.ok(Object.isFrozen(c.redisSentinel?.sentinels[0]));
    const withUrl = loadConfig({
      REDIS_SENTINELS: 'h:26379',
      REDIS_SENTINEL_MASTER: 'm',
      REDIS_URL: 'redis://:secret@ignored:6379/2',
    });
    assert.equal(withUrl.redisUrl, 'redis://:secret@ignored:6379/2');
    assert.equal(withUrl.redisSentinel?.masterName, 'm');
  });

  it('refuses Sentinels without a master name, a master name without Sentinels, and a bad address', () => {
    const refused: [Record<string, string>, string][] = [
      [{ REDIS_SENTINELS: 'h:26379' }, 'REDIS_SENTINEL_MASTER'],
      [{ REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINELS'],
      [{ REDIS_SENTINELS: 'h', REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINELS'],
      [{ REDIS_SENTINELS: 'h:0', REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINELS'],
      [{ REDIS_SENTINELS: 'h:99999', REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINELS'],
      [{ REDIS_SENTINELS: 'redis://h:26379', REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINELS'],
      [{ REDIS_SENTINELS: ' , ', REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINELS'],
      [{ REDIS_SENTINELS: 'h:26379', REDIS_SENTINEL_MASTER: 'two words' }, 'REDIS_SENTINEL_MASTER'],
    ];
    for (const [env, variable] of refused)
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && err.variable === variable,
        JSON.stringify(env),
      );
  });

  it('bounds how long a client may take to send a request, and how long an idle connection stays', () => {
    const defaults = loadConfig({}).connections;
    assert.deepEqual(defaults, {
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 72_000,
    });
    const c = loadConfig({
      REQUEST_TIMEOUT_MS: '300',
      HEADERS_TIMEOUT_MS: '200',
      KEEP_ALIVE_TIMEOUT_MS: '1500',
    }).connections;
    assert.deepEqual(c, { requestTimeoutMs: 300, headersTimeoutMs: 200, keepAliveTimeoutMs: 1500 });
  });

  it('sheds calls past 200 ms of event-loop delay or 128 calls in flight unless told otherwise; 0 is off', () => {
    assert.deepEqual(loadConfig({}).shed, { maxEventLoopDelayMs: 200, maxInFlight: 128 });
    const c = loadConfig({ SHED_MAX_EVENT_LOOP_DELAY_MS: '0', SHED_MAX_IN_FLIGHT: '1000' });
    assert.deepEqual(c.shed, { maxEventLoopDelayMs: 0, maxInFlight: 1000 });
  });

  it('writes every access line unless ACCESS_LOG, ACCESS_LOG_SAMPLE or ACCESS_LOG_SLOW_MS say otherwise', () => {
    assert.deepEqual(loadConfig({}).accessLog, { mode: 'on', sample: 1, slowMs: 1000 });
    assert.deepEqual(
      loadConfig({ ACCESS_LOG: 'errors', ACCESS_LOG_SAMPLE: ' 0.05 ', ACCESS_LOG_SLOW_MS: '250' }).accessLog,
      { mode: 'errors', sample: 0.05, slowMs: 250 },
    );
    for (const [raw, share] of [
      ['0', 0],
      ['.5', 0.5],
      ['1', 1],
      ['1.0', 1],
      ['0.125', 0.125],
    ] as const)
      assert.equal(loadConfig({ ACCESS_LOG_SAMPLE: raw }).accessLog.sample, share);
  });

  it('sizes the PostgreSQL pool and bounds the wait for one of its connections', () => {
    assert.deepEqual(loadConfig({}).databasePool, {
      size: 10,
      timeoutMs: 1000,
      statementTimeoutMs: 1000,
      backgroundStatementTimeoutMs: 300_000,
    });
    const c = loadConfig({
      DATABASE_POOL_SIZE: '4',
      DATABASE_POOL_TIMEOUT_MS: '750',
      DATABASE_STATEMENT_TIMEOUT_MS: '1500',
      DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS: '60000',
    });
    assert.deepEqual(c.databasePool, {
      size: 4,
      timeoutMs: 750,
      statementTimeoutMs: 1500,
      backgroundStatementTimeoutMs: 60_000,
    });
  });

  it('refuses a side listener on the public port, saying what it would expose there', () => {
    for (const [name, serves] of [
      ['METRICS', 'metrics are'],
      ['ADMIN', 'the admin API is'],
    ] as const)
      assert.throws(
        () => loadConfig({ PORT: '9000', [`${name}_PORT`]: '9000' }),
        (err) =>
          err instanceof ConfigError &&
          err.message.includes(`${name}_PORT`) &&
          err.message.includes(`${serves} never served on the public port`),
      );
  });

  const bad: [Record<string, string>, string][] = [
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
    [{ DATABASE_POOL_TIMEOUT_MS: 'forever' }, 'DATABASE_POOL_TIMEOUT_MS'],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '0' }, 'DATABASE_STATEMENT_TIMEOUT_MS'],
    [{ DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS: '10' }, 'DATABASE_BACKGROUND_STATEMENT_TIMEOUT_MS'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ PUBLIC_SCHEME: 'ftp' }, 'PUBLIC_SCHEME'],
    [{ WORKER_ENABLED: 'maybe' }, 'WORKER_ENABLED'],
    [{ ALLOWED_HOSTS: 'bad host' }, 'ALLOWED_HOSTS'],
    [{ IDENTIFIER_HASH_KEY: 'short' }, 'IDENTIFIER_HASH_KEY'],
    [{ TOKEN_TTL_SECONDS: '5' }, 'TOKEN_TTL_SECONDS'],
    [{ LIMIT_LEASE_MS: '5' }, 'LIMIT_LEASE_MS'],
    [{ LIMIT_LEASE_MS: 'a second' }, 'LIMIT_LEASE_MS'],
    [{ PRIVACY_COMPACT: 'weekly' }, 'PRIVACY_COMPACT'],
    [{ PRIVACY_COMPACT_WINDOW: '2-5' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ REQUEST_TIMEOUT_MS: '0' }, 'REQUEST_TIMEOUT_MS'],
    [{ HEADERS_TIMEOUT_MS: 'soon' }, 'HEADERS_TIMEOUT_MS'],
    [{ KEEP_ALIVE_TIMEOUT_MS: '0' }, 'KEEP_ALIVE_TIMEOUT_MS'],
    [{ REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '2000' }, 'HEADERS_TIMEOUT_MS'],
    [{ SHED_MAX_EVENT_LOOP_DELAY_MS: '-1' }, 'SHED_MAX_EVENT_LOOP_DELAY_MS'],
    [{ SHED_MAX_IN_FLIGHT: 'many' }, 'SHED_MAX_IN_FLIGHT'],
    [{ ACCESS_LOG: 'sometimes' }, 'ACCESS_LOG'],
    [{ ACCESS_LOG_SAMPLE: '1.5' }, 'ACCESS_LOG_SAMPLE'],
    [{ ACCESS_LOG_SAMPLE: '-0.1' }, 'ACCESS_LOG_SAMPLE'],
    [{ ACCESS_LOG_SAMPLE: '10%' }, 'ACCESS_LOG_SAMPLE'],
    [{ ACCESS_LOG_SLOW_MS: '0' }, 'ACCESS_LOG_SLOW_MS'],
  ];
  for (const [env, variable] of bad) {
    it(`names ${variable} when its value is bad (${JSON.stringify(env)})`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) =>
          err instanceof ConfigError && err.variable === variable && err.message.startsWith(variable),
      );
    });
  }
});

describe('PRIVACY_COMPACT and PRIVACY_COMPACT_WINDOW', () => {
  it('default to off and 02:00-05:00 UTC', () => {
    const c = loadConfig({});
    assert.deepEqual(c.privacy.compact, { mode: 'off', window: { startMinute: 120, endMinute: 300 } });
    assert.ok(Object.isFrozen(c.privacy.compact.window));
  });

  it('read the mode and the window, which may wrap midnight or be the whole day', () => {
    const read = (mode: string, win: string) =>
      loadConfig({ PRIVACY_COMPACT: mode, PRIVACY_COMPACT_WINDOW: win }).privacy.compact;
    assert.deepEqual(read('after-erasure', '23:00-01:00'), {
      mode: 'after-erasure',
      window: { startMinute: 1380, endMinute: 60 },
    });
    assert.deepEqual(read('daily', '00:00-24:00').window, { startMinute: 0, endMinute: 1440 });
    assert.deepEqual(read('off', ' 01:30-01:45 ').window, { startMinute: 90, endMinute: 105 });
  });

  const bad: [Record<string, string>, string][] = [
    [{ PRIVACY_COMPACT: 'weekly' }, 'PRIVACY_COMPACT'],
    [{ PRIVACY_COMPACT: 'true' }, 'PRIVACY_COMPACT'],
    [{ PRIVACY_COMPACT_WINDOW: '2-5' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '02:00' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '02:00-05:60' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '25:00-05:00' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '24:00-05:00' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '02:00-24:30' }, 'PRIVACY_COMPACT_WINDOW'],
    [{ PRIVACY_COMPACT_WINDOW: '03:00-03:00' }, 'PRIVACY_COMPACT_WINDOW'],
  ];
  for (const [env, variable] of bad) {
    it(`names ${variable} when its value is bad (${JSON.stringify(env)})`, () => {
      assert.throws(
        () => loadConfig(env),
        (err: unknown) => err instanceof ConfigError && err.variable === variable,
      );
    });
  }
});

describe('TRUST_PROXY and ADMIN_TRUST_PROXY', () => {
  const admin = (value: string) =>
    loadConfig({ ADMIN_PORT: '9001', ADMIN_TRUST_PROXY: value }).admin?.trustProxy;

  it('trust no proxy unless told: unset, empty, false and 0 alike', () => {
    for (const value of [undefined, '', 'false', 'FALSE', 'no', 'off', '0']) {
      const env = value === undefined ? {} : { TRUST_PROXY: value };
      assert.equal(loadConfig(env).trustProxy, null, String(value));
      assert.equal(
        value === undefined ? loadConfig({ ADMIN_PORT: '9001' }).admin?.trustProxy : admin(value),
        null,
      );
    }
  });

  it('read addresses, networks (CIDR), named networks and a hop count, the same on both listeners', () => {
    const value = ' 10.0.0.0/8, 192.0.2.7 ,[2001:db8::1], fd00::/8, loopback, 2 ';
    const expected = {
      networks: [
        { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
        { address: '192.0.2.7', prefix: 32, family: 'ipv4' },
        { address: '2001:db8::1', prefix: 128, family: 'ipv6' },
        { address: 'fd00::', prefix: 8, family: 'ipv6' },
        { address: '127.0.0.0', prefix: 8, family: 'ipv4' },
        { address: '::1', prefix: 128, family: 'ipv6' },
      ],
      hops: 2,
    };
    const trusted = loadConfig({ TRUST_PROXY: value }).trustProxy;
    assert.deepEqual(trusted, expected);
    assert.ok(Object.isFrozen(trusted?.networks[0]));
    assert.deepEqual(admin(value), expected);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '1' }).trustProxy, { networks: [], hops: 1 });
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'uniquelocal' }).trustProxy?.networks.length, 4);
  });

  it('refuse true, which would let any caller name its own address, saying what to give instead', () => {
    for (const [variable, env] of [
      ['TRUST_PROXY', { TRUST_PROXY: 'true' }],
      ['TRUST_PROXY', { TRUST_PROXY: 'yes' }],
      ['TRUST_PROXY', { TRUST_PROXY: '0.0.0.0/0' }],
      ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/8,::/0' }],
      ['ADMIN_TRUST_PROXY', { ADMIN_PORT: '9001', ADMIN_TRUST_PROXY: 'true' }],
    ] as const)
      assert.throws(
        () => loadConfig(env),
        (err: unknown) =>
          err instanceof ConfigError &&
          err.variable === variable &&
          /would trust every address/.test(err.message) &&
          /10\.0\.0\.0\/8/.test(err.message),
        JSON.stringify(env),
      );
  });

  it('refuse what is not an address, a network or one hop count of 1 to 32', () => {
    for (const value of [
      'proxy.internal',
      '10.0.0.0/33',
      '2001:db8::/129',
      '10.0.0.0/x',
      '10.0.0.0/8,,192.0.2.1',
      '1,2',
      '10.0.0.0/8,0',
      '33',
    ])
      assert.throws(
        () => loadConfig({ TRUST_PROXY: value }),
        (err: unknown) => err instanceof ConfigError && err.variable === 'TRUST_PROXY',
        value,
      );
  });
});

describe('AUTH_FAILURE_LIMIT and AUTH_FAILURE_ADDRESS_LIMIT', () => {
  it('count ten failures per credential and address, and ten credentials worth per address', () => {
    const c = loadConfig({});
    assert.equal(c.authFailureLimit, 10);
    assert.equal(c.authFailureAddressLimit, 100);
    assert.equal(loadConfig({ AUTH_FAILURE_LIMIT: '3' }).authFailureAddressLimit, 30);
    assert.equal(loadConfig({ AUTH_FAILURE_ADDRESS_LIMIT: '50' }).authFailureAddressLimit, 50);
  });

  it('refuse an address limit below the credential limit, which would never be reached', () => {
    assert.throws(
      () => loadConfig({ AUTH_FAILURE_LIMIT: '10', AUTH_FAILURE_ADDRESS_LIMIT: '5' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.variable === 'AUTH_FAILURE_ADDRESS_LIMIT' &&
        /at least AUTH_FAILURE_LIMIT \(10\)/.test(err.message),
    );
  });
});
