import type { Unstable_Config } from 'wrangler';

/**
 * The check that keeps docs/operate.md's deploy steps true to the code: for each deployed
 * environment, the table of bindings names every binding wrangler.toml gives it, with that
 * environment's resource names, and nothing else; its list of commands creates each resource,
 * migrates each D1 database, puts each secret of the worker's `SECRETS`, seeds the config and
 * deploys, in that order, each with that environment's `--env`; and the Settings table's
 * secrets are `SECRETS`. Pure: the test reads the files and wrangler's view of each environment.
 */

/** What the steps of one deployed environment must cover, from wrangler.toml. */
export interface DeployedEnvironment {
  /** The project's name for it (`--env` of the CLIs, the table's column, the steps' heading). */
  name: 'production' | 'staging';
  /** wrangler's `--env` for it, as a shell writes it: `''` is the top level. */
  wranglerEnv: string;
  /** The npm script that deploys it. */
  deployScript: string;
  /** Each binding, with the names of its resources (none for KV, whose id is all it has). */
  bindings: Map<string, string[]>;
  kvBindings: string[];
  databases: { binding: string; name: string; migrated: boolean }[];
  buckets: string[];
  queues: string[];
  /** The Durable Object classes the deploy creates, as `<tag> <class>` of each [[migrations]]. */
  classMigrations: string[];
}

export function deployedEnvironment(
  name: DeployedEnvironment['name'],
  config: Unstable_Config,
): DeployedEnvironment {
  const bindings = new Map<string, string[]>();
  for (const kv of config.kv_namespaces) bindings.set(kv.binding, []);
  for (const db of config.d1_databases) bindings.set(db.binding, [db.database_name ?? '']);
  for (const bucket of config.r2_buckets) bindings.set(bucket.binding, [bucket.bucket_name ?? '']);
  for (const object of config.durable_objects.bindings)
    bindings.set(object.name, [object.class_name]);
  const queues: string[] = [];
  for (const producer of config.queues.producers ?? []) {
    const deadLetters = (config.queues.consumers ?? [])
      .filter((consumer) => consumer.queue === producer.queue)
      .flatMap((consumer) => (consumer.dead_letter_queue ? [consumer.dead_letter_queue] : []));
    bindings.set(producer.binding, [producer.queue, ...deadLetters]);
  }
  for (const consumer of config.queues.consumers ?? [])
    queues.push(
      consumer.queue,
      ...(consumer.dead_letter_queue ? [consumer.dead_letter_queue] : []),
    );
  for (const producer of config.queues.producers ?? []) queues.push(producer.queue);
  // Nothing to name or create: Cloudflare Images is the account's.
  if (config.images?.binding) bindings.set(config.images.binding, []);
  if (config.assets?.binding)
    bindings.set(config.assets.binding, [config.assets.directory?.replace(/^\.\//, '') ?? '']);
  return {
    name,
    wranglerEnv: name === 'production' ? "''" : name,
    deployScript: name === 'production' ? 'deploy' : `deploy:${name}`,
    bindings,
    kvBindings: config.kv_namespaces.map((kv) => kv.binding),
    databases: config.d1_databases.map((db) => ({
      binding: db.binding,
      name: db.database_name ?? '',
      migrated: db.migrations_dir !== undefined,
    })),
    buckets: config.r2_buckets.map((bucket) => bucket.bucket_name ?? ''),
    queues: [...new Set(queues)],
    classMigrations: config.migrations.flatMap((migration) =>
      [...(migration.new_sqlite_classes ?? []), ...(migration.new_classes ?? [])].map(
        (name) => `${migration.tag} ${name}`,
      ),
    ),
  };
}

/** The names `SECRETS` must hold: the Bindings whose doc comment begins "Secret.". */
export function secretsByComment(envSource: string): string[] {
  const names: string[] = [];
  for (const [, comment = '', name = ''] of envSource.matchAll(
    /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*([A-Z][A-Z0-9_]*)\??:/g,
  )) {
    if (/^[\s*]*Secret\./.test(comment)) names.push(name);
  }
  return names;
}

/** The text of the section under `heading`, up to the next heading of its level or above. */
function section(markdown: string, heading: RegExp): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => heading.test(line));
  if (start === -1) return '';
  const level = /^#+/.exec(lines[start] ?? '')?.[0].length ?? 2;
  const above = new RegExp(`^#{1,${level}} `);
  let fenced = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end] ?? '';
    // A shell comment in a code block is no heading.
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced && above.test(line)) break;
  }
  return lines.slice(start, end).join('\n');
}

/** The rows of the first table whose header's first cell is `first`, as cells. */
function table(text: string, first: string): { header: string[]; rows: string[][] } {
  const lines = text.split('\n');
  const cells = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
  const start = lines.findIndex((line) => line.startsWith('|') && cells(line)[0] === first);
  if (start === -1) return { header: [], rows: [] };
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(cells(line));
  }
  return { header: cells(lines[start] ?? ''), rows };
}

const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');

/** The commands of the first ```sh block of a text: comments and blank lines left out. */
function commands(text: string): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

function capitalised(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** What is wrong with docs/operate.md's deploy steps, as sentences; empty when nothing is. */
export function checkDeployDocs(
  markdown: string,
  environments: readonly DeployedEnvironment[],
  secrets: readonly string[],
  bindingTypeNames: ReadonlySet<string>,
): string[] {
  const problems: string[] = [];
  const deploying = section(markdown, /^## Deploying$/);
  const bindingTable = table(deploying, 'binding');

  for (const row of bindingTable.rows) {
    const [binding = ''] = codeSpans(row[0] ?? '');
    if (!bindingTypeNames.has(binding))
      problems.push(`the bindings table lists ${binding}, which Bindings (worker/env.ts) lacks`);
  }
  for (const environment of environments) {
    const { name } = environment;
    const column = bindingTable.header.indexOf(name);
    if (column === -1) {
      problems.push(`${name}: the bindings table has no column "${name}"`);
    } else {
      const documented = new Map(
        bindingTable.rows
          .map((row) => [codeSpans(row[0] ?? '')[0] ?? '', codeSpans(row[column] ?? '')] as const)
          .filter(([, names]) => names.length > 0),
      );
      for (const [binding, names] of environment.bindings) {
        const listed = documented.get(binding);
        if (listed === undefined) {
          problems.push(`${name}: ${binding} is bound in wrangler.toml, not in the bindings table`);
        } else if (names.length > 0 && listed.join(', ') !== names.join(', ')) {
          problems.push(
            `${name}: the bindings table says ${binding} is ${listed.join(', ')}; wrangler.toml: ${names.join(', ')}`,
          );
        }
      }
      for (const binding of documented.keys())
        if (!environment.bindings.has(binding))
          problems.push(
            `${name}: the bindings table lists ${binding}, which wrangler.toml does not bind`,
          );
    }
    for (const migration of environment.classMigrations) {
      const [tag, className] = migration.split(' ');
      if (!deploying.includes(`${tag} \`${className}\``))
        problems.push(`${name}: the deploy's class migration ${migration} is not named`);
    }
    problems.push(...checkSteps(deploying, environment, secrets));
  }

  const settings = table(section(markdown, /^## Settings$/), 'name');
  const documentedSecrets = new Set<string>();
  for (const row of settings.rows) {
    const names = codeSpans(row[0] ?? '');
    const kinds = (row[1] ?? '').split(',').map((kind) => kind.trim());
    names.forEach((secret, i) => {
      if ((kinds[i] ?? kinds[0]) === 'secret') documentedSecrets.add(secret);
    });
  }
  for (const secret of secrets)
    if (!documentedSecrets.has(secret))
      problems.push(`Settings: ${secret} is not in the table as a secret`);
  for (const secret of documentedSecrets)
    if (!secrets.includes(secret))
      problems.push(`Settings: ${secret} is a secret there, not in SECRETS (worker/env.ts)`);
  return problems;
}

/** One environment's list of commands: each step present, in order, with its `--env`. */
function checkSteps(
  deploying: string,
  environment: DeployedEnvironment,
  secrets: readonly string[],
): string[] {
  const { name, wranglerEnv } = environment;
  const steps = commands(section(deploying, new RegExp(`^### ${capitalised(name)}$`)));
  if (steps.length === 0) return [`${name}: no "### ${capitalised(name)}" list of commands`];
  const problems: string[] = [];
  const at = (command: string) => {
    const index = steps.findIndex((line) => line === command || line.endsWith(`| ${command}`));
    if (index === -1) problems.push(`${name}: no \`${command}\``);
    return index;
  };

  const creates = [
    ...environment.kvBindings.map(
      (kv) => `npx wrangler kv namespace create ${kv} --env ${wranglerEnv}`,
    ),
    ...environment.databases.map((db) => `npx wrangler d1 create ${db.name}`),
    ...environment.buckets.map((bucket) => `npx wrangler r2 bucket create ${bucket}`),
    ...environment.queues.map((queue) => `npx wrangler queues create ${queue}`),
  ].map(at);
  const migrations = environment.databases
    .filter((db) => db.migrated)
    .map((db) =>
      at(`npx wrangler d1 migrations apply ${db.binding} --remote --env ${wranglerEnv}`),
    );
  const secretPuts = secrets.map((secret) =>
    at(`npx wrangler secret put ${secret} --env ${wranglerEnv}`),
  );
  const seed = at(`npm run config -- seed --remote --env ${name}`);
  const deploy = at(`npm run ${environment.deployScript}`);
  const order: [string, number[]][] = [
    ['the creates', creates],
    ['the migrations', migrations],
    ['the secrets', secretPuts],
    ['the seed', [seed]],
    ['the deploy', [deploy]],
  ];
  // Each step after the one before it; a missing command is reported above, not here.
  const found = order
    .map(([what, indexes]) => [what, indexes.filter((index) => index !== -1)] as const)
    .filter(([, indexes]) => indexes.length > 0);
  for (let i = 1; i < found.length; i++) {
    const [before, earlier] = found[i - 1]!;
    const [after, later] = found[i]!;
    if (Math.max(...earlier) > Math.min(...later))
      problems.push(`${name}: ${before} must come before ${after}`);
  }

  // Nothing the steps name that this environment does not have.
  const known = {
    'd1 create': environment.databases.map((db) => db.name),
    'd1 migrations apply': environment.databases
      .filter((db) => db.migrated)
      .map((db) => db.binding),
    'r2 bucket create': environment.buckets,
    'queues create': environment.queues,
    'kv namespace create': environment.kvBindings,
    'secret put': [...secrets],
  };
  for (const line of steps) {
    for (const [command, names] of Object.entries(known)) {
      const named = new RegExp(`npx wrangler ${command} (\\S+)`).exec(line)?.[1];
      if (named !== undefined && !names.includes(named))
        problems.push(`${name}: \`${line}\` names ${named}, which it does not have`);
    }
    const envs = [...line.matchAll(/--env (''|\S+)/g)].map((m) => m[1]);
    const expected = line.startsWith('npm run') ? name : wranglerEnv;
    for (const given of envs)
      if (given !== expected) problems.push(`${name}: \`${line}\` is for --env ${given}`);
  }
  return problems;
}
