import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { configVariables, loadConfig } from '../../src/config.js';
import { REPO_ROOT } from '../helpers/repo-root.js';
import { createTestApp } from '../helpers/test-runtime.js';
import {
  composeServices,
  composeText,
  containerEnv,
  type DockerStage,
  dockerStages,
  envFile,
  execForm,
  haproxyConfig,
  type K8sContainer,
  kubernetesObjects,
  podSpec,
} from './deploy-recipes.js';

/**
 * The recipes of deploy/ (docs/operations.md, Deploying), checked without a container runtime:
 * what they set is read by the configuration, what they run is a command of the CLI, what they
 * probe answers, their ports agree, and a stopping pod is given the time its drain takes.
 */
const stages = dockerStages();
const image = stages.at(-1)!;
const argsOf = (stage: DockerStage, op: string) =>
  stage.instructions.filter((i) => i.op === op).map((i) => i.args);
const imageEnv = new Map(
  argsOf(image, 'ENV').flatMap((a) => a.split(/\s+/).map((kv) => kv.split('=') as [string, string])),
);
const entrypoint = execForm(argsOf(image, 'ENTRYPOINT').at(-1) ?? '') ?? [];
const defaultArgs = execForm(argsOf(image, 'CMD').at(-1) ?? '') ?? [];
const healthcheck = execForm(
  argsOf(image, 'HEALTHCHECK')
    .at(-1)
    ?.replace(/^(--\S+\s+)*CMD\s+/, '') ?? '',
);

const services = composeServices();
const rpaServices = Object.entries(services).filter(([, s]) => s.build?.dockerfile === 'deploy/Dockerfile');
const composeRole = (name: string) => (services[name]?.command ?? defaultArgs)[0];
const composeEnv = (name: string) =>
  new Map(Object.entries(services[name]?.environment ?? {}).map(([k, v]) => [k, String(v)]));

const objects = kubernetesObjects();
const workloads = objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job');
const containers = workloads.flatMap((o) => podSpec(o).containers.map((c) => ({ object: o, c })));
const k8sRole = (c: K8sContainer) => (c.args ?? defaultArgs)[0];
const imagePort = imageEnv.get('PORT') ?? String(loadConfig({}).port);

describe('deployment recipes', () => {
  it('set only variables the configuration reads', () => {
    const set: [string, string][] = [
      ...[...imageEnv.keys()].map((k): [string, string] => ['Dockerfile', k]),
      ...rpaServices.flatMap(([n, s]) =>
        Object.keys(s.environment ?? {}).map((k): [string, string] => [n, k]),
      ),
      ...objects
        .filter((o) => o.kind === 'ConfigMap' || o.kind === 'Secret')
        .flatMap((o) =>
          Object.keys({ ...o.data, ...o.stringData }).map((k): [string, string] => [o.file, k]),
        ),
      ...containers.flatMap(({ object, c }) =>
        (c.env ?? []).map((e): [string, string] => [object.file, e.name]),
      ),
    ];
    const known = new Set(configVariables());
    assert.ok(set.length > 20, 'the recipes were read');
    assert.deepEqual(
      set.filter(([, name]) => !known.has(name)),
      [],
      'each of these is read by no reader of src/config.ts',
    );
  });

  it('fill the variables compose.yaml interpolates from the env file example, and only those', () => {
    const interpolated = new Set([...composeText().matchAll(/\$\{(\w+)/g)].map((m) => m[1]!));
    assert.deepEqual([...interpolated].sort(), [...envFile('.env.example').keys()].sort());
  });

  it("run commands the CLI has, through the package's bin, in exec form", () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: { rpa: string } };
    assert.deepEqual(entrypoint, ['node', pkg.bin.rpa]);
    const runs: [string, string | undefined][] = [
      ['Dockerfile CMD', defaultArgs[0]],
      ...rpaServices.map(([n]): [string, string | undefined] => [n, composeRole(n)]),
      ...containers.map(({ object, c }): [string, string | undefined] => [object.file, k8sRole(c)]),
    ];
    const commands = new Set(buildProgram().commands.map((c) => c.name()));
    assert.deepEqual(
      runs.filter(([, command]) => !commands.has(command ?? '')),
      [],
    );
    assert.deepEqual(new Set(runs.map(([, command]) => command)), new Set(['serve', 'migrate', 'worker']));
    // As the image runs it: WORKDIR is the package's root.
    for (const command of ['serve', 'migrate', 'worker']) {
      const r = spawnSync(process.execPath, [...entrypoint.slice(1), command, '--help'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, `${command}: ${r.stderr}`);
    }
  });

  it("believe X-Forwarded-For only from the balancer's network", () => {
    const values: [string, string | undefined][] = [
      ...rpaServices
        .filter(([n]) => composeRole(n) === 'serve')
        .map(([n]): [string, string | undefined] => [n, composeEnv(n).get('TRUST_PROXY')]),
      ...containers
        .filter(({ c }) => k8sRole(c) === 'serve')
        .map(({ object, c }): [string, string | undefined] => [
          object.file,
          containerEnv(c, objects).get('TRUST_PROXY'),
        ]),
    ];
    assert.ok(values.length >= 3, 'the instances were found');
    for (const [where, value] of values) {
      const trusted = loadConfig({ TRUST_PROXY: value ?? '' }).trustProxy;
      assert.ok(trusted && trusted.networks.length > 0, `${where}: TRUST_PROXY=${value}`);
    }
  });

  it('probe paths that answer: liveness without the dependencies, readiness with them', async () => {
    type Probe = { where: string; path: string; host: string; readiness: boolean };
    const probes: Probe[] = [];
    const script = healthcheck?.at(-1) ?? '';
    const imagePath = /['"`](\/[\w/]+)['"`]/.exec(script)?.[1];
    assert.ok(imagePath && healthcheck?.[0] === 'node', `HEALTHCHECK: ${script}`);
    probes.push({ where: 'HEALTHCHECK', path: imagePath, host: '127.0.0.1', readiness: false });
    const check = /http-check send meth GET uri (\S+) ver \S+ hdr Host (\S+)/.exec(haproxyConfig());
    assert.ok(check, 'haproxy.cfg sends an HTTP check');
    probes.push({ where: 'haproxy.cfg', path: check[1]!, host: check[2]!, readiness: true });
    for (const { object, c } of containers) {
      // The kubelet sends the pod's address as Host.
      const probe = (kind: string, path: string | undefined, readiness: boolean) =>
        path && probes.push({ where: `${object.file} ${kind}`, path, host: '10.1.2.3:8080', readiness });
      probe('startupProbe', c.startupProbe?.httpGet?.path, false);
      probe('livenessProbe', c.livenessProbe?.httpGet?.path, false);
      probe('readinessProbe', c.readinessProbe?.httpGet?.path, true);
    }
    assert.ok(
      probes.some((p) => p.where.endsWith('readinessProbe')),
      'Kubernetes probes readiness',
    );
    assert.ok(
      probes.some((p) => p.where.endsWith('livenessProbe')),
      'Kubernetes probes liveness',
    );
    // Production settings: only listed names are served, but probes use addresses.
    const t = await createTestApp({ ALLOWED_HOSTS: 'api.example.com', TRUST_PROXY: 'loopback' });
    try {
      for (const p of probes) {
        const r = await t.app.inject({ url: p.path, headers: { host: p.host } });
        assert.equal(r.statusCode, 200, `${p.where} ${p.path}: ${r.body}`);
        // Only readiness reports the dependencies: a liveness probe failing on a database outage
        // would restart every instance for nothing.
        assert.equal('checks' in r.json(), p.readiness, `${p.where} ${p.path}: ${r.body}`);
      }
    } finally {
      await t.close();
    }
  });

  it("the image's health check passes against a serving instance and fails without one", async () => {
    assert.ok(healthcheck);
    const exitCode = async (port: number) => {
      const child = spawn(process.execPath, healthcheck.slice(1), {
        env: { ...process.env, PORT: String(port) },
        stdio: 'ignore',
      });
      return (await once(child, 'exit'))[0] as number | null;
    };
    const t = await createTestApp();
    let port: number;
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
      assert.equal(await exitCode(port), 0);
    } finally {
      await t.close();
    }
    assert.equal(await exitCode(port), 1);
  });

  it('listen where the recipes send traffic', () => {
    assert.deepEqual(
      argsOf(image, 'EXPOSE').map((a) => a.split('/')[0]),
      [imagePort],
    );
    const servers = [...haproxyConfig().matchAll(/^\s*server\s+\S+\s+([\w-]+):(\d+)/gm)];
    const apis = rpaServices.filter(([n]) => composeRole(n) === 'serve').map(([n]) => n);
    assert.deepEqual(servers.map((m) => m[1]).sort(), apis.sort(), 'HAProxy balances every instance');
    for (const [, host, port] of servers)
      assert.equal(port, composeEnv(host!).get('PORT') ?? imagePort, host);
    const bind = /^\s*bind\s+:(\d+)/m.exec(haproxyConfig())?.[1];
    assert.ok(services.balancer?.ports?.every((p) => p.endsWith(`:${bind}`)));

    for (const { object, c } of containers.filter(({ c }) => k8sRole(c) !== 'migrate')) {
      const env = containerEnv(c, objects);
      const ports = new Map((c.ports ?? []).map((p) => [p.name, String(p.containerPort)]));
      if (k8sRole(c) === 'serve') assert.equal(ports.get('http'), env.get('PORT') ?? imagePort, object.file);
      if (env.has('METRICS_PORT')) assert.equal(ports.get('metrics'), env.get('METRICS_PORT'), object.file);
      for (const probe of [c.startupProbe, c.livenessProbe, c.readinessProbe])
        if (probe?.httpGet) assert.ok(ports.has(String(probe.httpGet.port)), `${object.file} probes a port`);
    }
    for (const service of objects.filter((o) => o.kind === 'Service')) {
      const selected = containers.filter(({ object }) =>
        Object.entries(service.spec?.selector ?? {}).every(
          ([k, v]) => object.spec?.template?.metadata.labels[k] === v,
        ),
      );
      assert.ok(selected.length > 0, `${service.file} selects pods`);
      for (const { target, c } of (service.spec?.ports ?? []).flatMap((p) =>
        selected.map(({ c }) => ({ target: p.targetPort, c })),
      ))
        assert.ok(
          c.ports?.some((p) => p.name === target || p.containerPort === target),
          `${service.file}`,
        );
    }
  });

  it('give a stopping instance the time its drain takes before it is killed', () => {
    const defaultTimeout = String(loadConfig({}).shutdownTimeoutMs);
    const drainMs = (env: Map<string, string>) =>
      Number(env.get('SHUTDOWN_DELAY_MS') ?? 0) + Number(env.get('SHUTDOWN_TIMEOUT_MS') ?? defaultTimeout);
    for (const o of objects.filter((o) => o.kind === 'Deployment')) {
      const spec = podSpec(o);
      for (const c of spec.containers) {
        const env = containerEnv(c, objects);
        if (k8sRole(c) === 'serve')
          assert.ok(env.has('SHUTDOWN_DELAY_MS'), `${o.file} sets SHUTDOWN_DELAY_MS`);
        const preStop = c.lifecycle?.preStop?.exec?.command ?? [];
        const sleepMs = preStop[0] === 'sleep' ? Number(preStop[1]) * 1000 : 0;
        if (k8sRole(c) === 'serve') assert.ok(sleepMs > 0, `${o.file}: a preStop sleep`);
        const graceMs = (spec.terminationGracePeriodSeconds ?? 30) * 1000;
        assert.ok(
          graceMs >= sleepMs + drainMs(env),
          `${o.file}: ${graceMs} ms < ${sleepMs} + ${drainMs(env)}`,
        );
      }
    }
    for (const [name, s] of rpaServices.filter(([n]) => composeRole(n) !== 'migrate')) {
      const env = composeEnv(name);
      if (composeRole(name) === 'serve')
        assert.ok(env.has('SHUTDOWN_DELAY_MS'), `${name} sets SHUTDOWN_DELAY_MS`);
      const graceMs = Number(/^(\d+)s$/.exec(s.stop_grace_period ?? '10s')?.[1]) * 1000;
      assert.ok(graceMs >= drainMs(env), `${name}: ${graceMs} ms < ${drainMs(env)}`);
    }
  });

  it('migrate once, as a step of its own, before any instance or worker starts', () => {
    const migrates = rpaServices.filter(([n]) => composeRole(n) === 'migrate').map(([n]) => n);
    assert.equal(migrates.length, 1);
    assert.equal(services[migrates[0]!]?.restart, 'no');
    const others = rpaServices.filter(([n]) => composeRole(n) !== 'migrate');
    assert.ok(
      others.some(([n]) => composeRole(n) === 'worker'),
      'compose runs a worker',
    );
    for (const [name, s] of others) {
      const dependsOn = s.depends_on as Record<string, { condition: string }> | undefined;
      assert.equal(dependsOn?.[migrates[0]!]?.condition, 'service_completed_successfully', name);
      assert.equal(composeEnv(name).get('MIGRATE_ON_START'), 'false', name);
      if (composeRole(name) === 'serve') assert.equal(composeEnv(name).get('WORKER_ENABLED'), 'false', name);
    }

    const jobs = containers.filter(({ object }) => object.kind === 'Job');
    assert.deepEqual(
      jobs.map(({ c }) => k8sRole(c)),
      ['migrate'],
    );
    assert.ok(['Never', 'OnFailure'].includes(podSpec(jobs[0]!.object).restartPolicy ?? ''));
    const deployed = containers.filter(({ object }) => object.kind === 'Deployment');
    assert.deepEqual(new Set(deployed.map(({ c }) => k8sRole(c))), new Set(['serve', 'worker']));
    for (const { object, c } of deployed) {
      assert.equal(containerEnv(c, objects).get('MIGRATE_ON_START'), 'false', object.file);
      if (k8sRole(c) === 'serve') assert.equal(containerEnv(c, objects).get('WORKER_ENABLED'), 'false');
    }
    // The Job is applied, and waited for, before the rest.
    const kustomization = objects.find((o) => o.kind === 'Kustomization');
    const applied = kustomization?.resources ?? [];
    assert.ok(
      applied.length > 0 && applied.every((f) => existsSync(join(REPO_ROOT, 'deploy/kubernetes', f))),
    );
    assert.ok(!applied.includes(jobs[0]!.object.file));
  });

  it('build in stages and run as an unprivileged user with production dependencies only', () => {
    assert.ok(stages.length >= 2);
    const user = argsOf(image, 'USER').at(-1);
    assert.ok(user && !/^(root|0)(:|$)/.test(user), `USER ${user}`);
    assert.ok(argsOf(image, 'HEALTHCHECK').length === 1 && healthcheck, 'an exec-form HEALTHCHECK');
    assert.ok(entrypoint.length > 0 && defaultArgs.length > 0, 'exec-form ENTRYPOINT and CMD');
    assert.ok(
      !argsOf(image, 'RUN').some((r) => /npm (ci|install|i)\b/.test(r)),
      'nothing installed in the image',
    );
    const stageCopying = (path: string) => {
      const copy = argsOf(image, 'COPY').find((a) => a.split(/\s+/).at(-2)?.endsWith(path));
      const from = /--from=(\S+)/.exec(copy ?? '')?.[1];
      const stage = stages.find((s) => s.name === from);
      assert.ok(stage, `the image copies ${path} from a stage`);
      return argsOf(stage, 'RUN').join('\n');
    };
    assert.match(stageCopying('node_modules'), /npm ci [^\n]*--omit=dev/);
    assert.match(stageCopying('dist'), /npm ci[\s\S]*npm run build/);
    // What is copied from the build context exists and is not kept out of it.
    const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
    const sources = stages.flatMap((s) =>
      argsOf(s, 'COPY')
        .filter((a) => !a.startsWith('--from'))
        .flatMap((a) => a.split(/\s+/).slice(0, -1)),
    );
    for (const source of sources) {
      assert.ok(existsSync(join(REPO_ROOT, source)), source);
      assert.ok(
        !ignored.includes(source) && !ignored.includes(`/${source}`),
        `${source} is in .dockerignore`,
      );
    }
  });
});
