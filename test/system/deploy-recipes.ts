import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../helpers/repo-root.js';

/** The recipes under deploy/, read as the tools that run them read them. */
const DEPLOY = join(REPO_ROOT, 'deploy');
const read = (path: string) => readFileSync(join(DEPLOY, path), 'utf8');

export interface DockerStage {
  readonly name: string;
  readonly from: string;
  /** Instructions with continuation lines joined, e.g. { op: 'RUN', args: 'npm ci' }. */
  readonly instructions: { readonly op: string; readonly args: string }[];
}

/** deploy/Dockerfile's stages in order (the last is the image); ARGs before the first FROM dropped. */
export function dockerStages(): DockerStage[] {
  const stages: DockerStage[] = [];
  for (const line of read('Dockerfile').replace(/\\\n/g, ' ').split('\n')) {
    const m = /^\s*([A-Za-z]+)\s+(.*?)\s*$/.exec(line);
    if (!m || line.trim().startsWith('#')) continue;
    const op = m[1]!.toUpperCase();
    const args = m[2]!;
    if (op === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      stages.push({ from: from?.[1] ?? args, name: from?.[2] ?? String(stages.length), instructions: [] });
    } else stages.at(-1)?.instructions.push({ op, args });
  }
  return stages;
}

/** The JSON array of an exec-form instruction (ENTRYPOINT, CMD, HEALTHCHECK's CMD); null otherwise. */
export function execForm(args: string): string[] | null {
  try {
    const value: unknown = JSON.parse(args);
    return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : null;
  } catch {
    return null;
  }
}

export interface ComposeService {
  readonly image?: string;
  readonly build?: { readonly dockerfile?: string };
  readonly command?: string[];
  readonly environment?: Record<string, string | number | boolean>;
  readonly depends_on?: Record<string, { readonly condition: string }> | string[];
  readonly stop_grace_period?: string;
  readonly restart?: string;
  readonly volumes?: string[];
  readonly ports?: string[];
}

/** deploy/compose.yaml with its merge keys (`<<: *anchor`) applied, as Compose applies them. */
export function composeServices(): Record<string, ComposeService> {
  return (parse(read('compose.yaml'), { merge: true }) as { services: Record<string, ComposeService> })
    .services;
}

export const composeText = (): string => read('compose.yaml');

/** Names and values of an env file (`KEY=value` lines; comments and blanks skipped). */
export function envFile(path: string): Map<string, string> {
  const entries = read(path)
    .split('\n')
    .map((l) => /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m): [string, string] => [m[1]!, m[2]!]);
  return new Map(entries);
}

export const haproxyConfig = (): string => read('haproxy.cfg');

interface Probe {
  readonly httpGet?: { readonly path: string; readonly port: string | number };
}

export interface K8sContainer {
  readonly name: string;
  readonly args?: string[];
  readonly ports?: { readonly name?: string; readonly containerPort: number }[];
  readonly env?: { readonly name: string; readonly value?: string }[];
  readonly envFrom?: { readonly configMapRef?: { name: string }; readonly secretRef?: { name: string } }[];
  readonly startupProbe?: Probe;
  readonly livenessProbe?: Probe;
  readonly readinessProbe?: Probe;
  readonly lifecycle?: { readonly preStop?: { readonly exec?: { readonly command: string[] } } };
}

export interface PodSpec {
  readonly terminationGracePeriodSeconds?: number;
  readonly restartPolicy?: string;
  readonly containers: K8sContainer[];
}

type Labels = Record<string, string>;

export interface K8sObject {
  readonly file: string;
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly data?: Record<string, string>;
  readonly stringData?: Record<string, string>;
  /** A Kustomization's files. */
  readonly resources?: string[];
  readonly spec?: {
    /** A Service's labels, or a Deployment's or PodDisruptionBudget's matchLabels. */
    readonly selector?: { readonly matchLabels?: Labels; readonly [label: string]: unknown };
    readonly template?: { readonly metadata: { readonly labels: Labels }; readonly spec: PodSpec };
    readonly ports?: { readonly port: number; readonly targetPort: string | number }[];
  };
}

/** Every document of every deploy/kubernetes/*.yaml file. */
export function kubernetesObjects(): K8sObject[] {
  const dir = join(DEPLOY, 'kubernetes');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => ({
        ...(d.toJS() as Omit<K8sObject, 'file'>),
        file,
      })),
    );
}

/** The pod template of a Deployment or Job. */
export function podSpec(o: K8sObject): PodSpec {
  const spec = o.spec?.template?.spec;
  if (!spec) throw new Error(`${o.file}: ${o.kind} ${o.metadata.name} has no pod template`);
  return spec;
}

/**
 * The environment a container starts with: its envFrom ConfigMaps and Secrets, then its own env
 * (which wins, as in Kubernetes). Secret values are the example's.
 */
export function containerEnv(c: K8sContainer, objects: readonly K8sObject[]): Map<string, string> {
  const env = new Map<string, string>();
  for (const from of c.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
    const source = objects.find((o) => o.kind === kind && o.metadata.name === ref?.name);
    if (!source) throw new Error(`${c.name} takes its environment from a missing ${kind} ${ref?.name}`);
    for (const [k, v] of Object.entries({ ...source.data, ...source.stringData })) env.set(k, v);
  }
  for (const e of c.env ?? []) env.set(e.name, e.value ?? '');
  return env;
}
