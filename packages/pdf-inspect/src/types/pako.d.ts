/**
 * The one piece of pako (LibPDF's inflater) this package touches: the streaming inflater's output
 * hook, through which every FlateDecode stream LibPDF decodes passes in chunks of at most 64 KiB.
 */
declare module "pako" {
  export class Inflate {
    onData(chunk: Uint8Array | string): void;
  }
}
