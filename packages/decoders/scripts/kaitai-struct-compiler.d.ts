// The compiler package ships no type declarations; this is the one call the build uses.
declare module 'kaitai-struct-compiler' {
  interface KaitaiStructCompiler {
    /** Resolves to generated files by name, e.g. `{ 'Norby.js': '...' }`. */
    compile(
      language: string,
      ksy: unknown,
      importer: unknown,
      debug: boolean,
    ): Promise<Record<string, string>>;
  }
  const compiler: KaitaiStructCompiler;
  export default compiler;
}
