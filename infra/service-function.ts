import { copyFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { AssetHashType, DockerImage, Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
  type SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { buildSync } from 'esbuild';
import { METRICS_NAMESPACE, SERVICE_NAME } from '#lib/log/service.ts';
import { esbuildOptions } from './bundling.ts';

export const ROOT = join(import.meta.dirname, '..');

export interface ServiceFunctionProps {
  entry: string;
  environment?: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
  /** Files to copy next to the bundle (paths relative to the repo root), for functions that serve them. */
  copyFiles?: readonly { from: string; to: string }[];
  /** Lambda's own lines (START, REPORT) sent from this level: INFO, Lambda's default, unless said. */
  systemLogLevel?: SystemLogLevel;
}

/**
 * Bundles built ahead, by entry (prebuildBundles): a function's asset copies its folder. Kept for the process,
 * which is one synth (`cdk synth`, `cdk deploy` and `cdk watch` run the app afresh each time).
 */
const prebuilt = new Map<string, string>();

/**
 * Builds every given entry in one esbuild call (esbuild spreads the entries over the cores and parses shared
 * modules once): a synth of all functions then takes seconds, not one build after another.
 */
export function prebuildBundles(entries: readonly string[]): void {
  const todo = [...new Set(entries)].filter((entry) => !prebuilt.has(entry));
  if (todo.length === 0) return;
  const outdir = mkdtempSync(join(tmpdir(), 'tms-bundles-'));
  // The assets are copies in cdk.out: the build folder goes with the process.
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  const { outfile: _single, entryPoints: _one, ...options } = esbuildOptions(join(ROOT, todo[0]), join(outdir, 'unused.mjs'));
  buildSync({
    ...options,
    entryPoints: todo.map((entry, i) => ({ in: join(ROOT, entry), out: `${i}/index` })),
    outdir,
    outExtension: { '.js': '.mjs' },
    absWorkingDir: ROOT,
    metafile: false,
  });
  for (const [i, entry] of todo.entries()) prebuilt.set(entry, join(outdir, String(i)));
}

/**
 * The function's code: its entry bundled in this process by esbuild exactly as infra/bundling.ts says (the same
 * bundles `npm run bench` measures and CI loads), with the files it serves beside it. No Docker, no npx per
 * function: a whole synth bundles every function in seconds. The asset's hash is the bundle's own.
 */
export function bundledCode(entry: string, copyFiles: readonly { from: string; to: string }[] = []): Code {
  const source = join(ROOT, entry);
  return Code.fromAsset(dirname(source), {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('unused-bundling-is-local'),
      // Part of the asset's cache key: without it every function of one folder would get the first one's bundle.
      command: ['esbuild', entry, ...copyFiles.map((f) => f.to)],
      local: {
        tryBundle(outputDir: string) {
          const ready = prebuilt.get(entry);
          if (ready) cpSync(ready, outputDir, { recursive: true });
          else buildSync({ ...esbuildOptions(source, join(outputDir, 'index.mjs')), absWorkingDir: ROOT, metafile: false });
          for (const { from, to } of copyFiles) copyFileSync(join(ROOT, from), join(outputDir, to));
          return true;
        },
      },
    },
  });
}

/**
 * Every function of the service: Node 22 on arm64, bundled as infra/bundling.ts says, JSON logs kept a month,
 * X-Ray tracing on. Its role starts with nothing but its own log group; grants come from the function's
 * declared needs (stack.ts).
 */
export class ServiceFunction extends LambdaFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH });
    // Not AWSLambdaBasicExecutionRole: that may write to any log group of the account.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    super(scope, id, {
      code: bundledCode(props.entry, props.copyFiles),
      handler: 'index.handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      ...(props.systemLogLevel && { systemLogLevelV2: props.systemLogLevel }),
      role,
      tracing: Tracing.ACTIVE,
      environment: {
        // No --enable-source-maps: error logs map their stacks themselves (lib/log/source-mapped-stack.ts).
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
        ...props.environment,
      },
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-L1',
      reason: 'Pinned to nodejs22.x on purpose: the Node version every test runs on (devDependency node@22).',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing: xray:PutTraceSegments and PutTelemetryRecords have no resource-level permissions.',
    });
  }
}
