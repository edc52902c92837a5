// The part of jsdom's API test/build uses (the package ships no types, and @types/jsdom is not a
// dependency): a document whose window runs scripts handed to its VM context.
declare module 'jsdom' {
  import type { Context } from 'node:vm';

  export class JSDOM {
    constructor(html: string, options: { runScripts: 'outside-only'; pretendToBeVisual?: boolean });
    readonly window: Window & typeof globalThis;
    getInternalVMContext(): Context;
  }
}
