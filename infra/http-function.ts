import { Duration } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, SourceMapMode, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { BUNDLE_BANNER, BUNDLE_MAIN_FIELDS, BUNDLE_TARGET } from './bundling.ts';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');

export interface ServiceFunctionProps {
  entry: string;
  environment?: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
}

/**
 * Every function of the service: Node 22 on arm64, bundled as infra/bundling.ts says (the same bundles
 * `npm run bench` measures), its logs kept a month. Grants come from the function's declared needs (stack.ts).
 */
export class ServiceFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH });
    const options: NodejsFunctionProps = {
      entry: join(ROOT, props.entry),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      logGroup,
      projectRoot: ROOT,
      depsLockFilePath: join(ROOT, 'package-lock.json'),
      environment: {
        // No --enable-source-maps: error logs map their stacks themselves (lib/log/source-mapped-stack.ts).
        POWERTOOLS_SERVICE_NAME: 'template-messaging-service',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: BUNDLE_TARGET,
        minify: true,
        sourceMap: true,
        sourceMapMode: SourceMapMode.EXTERNAL,
        bundleAwsSDK: true,
        mainFields: BUNDLE_MAIN_FIELDS,
        banner: BUNDLE_BANNER,
      },
    };
    super(scope, id, options);
  }
}
