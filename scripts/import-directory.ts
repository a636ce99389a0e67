import { readFileSync } from 'node:fs';
import { DirectoryFileError } from '#lib/adapters/directory-file.ts';
import { importDirectory } from '#lib/adapters/dynamo/shared/directory-import.ts';
import { serviceTable } from '#lib/wiring/table.ts';

/**
 * `npm run import -- <file.json>`: loads the directory (decisions §8) into the table named by TABLE_NAME
 * (DYNAMODB_ENDPOINT points it at DynamoDB Local). An invalid file is refused whole and nothing is written.
 */
const file = process.argv[2];
if (!file) {
  console.error('usage: TABLE_NAME=<table> npm run import -- <file.json>');
  process.exit(2);
}
try {
  const { items } = await importDirectory(serviceTable(), JSON.parse(readFileSync(file, 'utf8')));
  console.log(`imported ${items} items into ${process.env.TABLE_NAME}`);
} catch (error) {
  console.error(error instanceof DirectoryFileError || error instanceof SyntaxError ? error.message : String(error));
  process.exit(1);
}
