// `npm run build` (after the PWA): bundles the server into api/dist/server.mjs (see api/src/build/server-bundle.ts).
import path from 'node:path';
import { buildServer } from '../api/src/build/server-bundle.ts';

console.log(`built ${path.relative(process.cwd(), await buildServer())}`);
