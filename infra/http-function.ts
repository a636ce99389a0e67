import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type NodejsFunctionProps } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');

export interface ServiceFunctionProps {
  entry: string;
  table: ITable;
  /** Read-only functions get read grants only. */
  access: 'read' | 'readwrite';
  environment?: Record<string, string>;
  timeout?: Duration;
  memorySize?: number;
}

/**
 * Every function of the service: Node 22 on arm64, bundled by esbuild (the AWS SDK included, so the
 * deployed code runs on the SDK version the tests ran), minified with source maps, the table granted and
 * injected, its logs kept a month.
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
        NODE_OPTIONS: '--enable-source-maps',
        POWERTOOLS_SERVICE_NAME: 'template-messaging-service',
        TABLE_NAME: props.table.tableName,
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        bundleAwsSDK: true,
        mainFields: ['module', 'main'],
        // ESM output still meets CommonJS dependencies that call require().
        banner: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
      },
    };
    super(scope, id, options);
    if (props.access === 'read') props.table.grantReadData(this);
    else props.table.grantReadWriteData(this);
  }
}
