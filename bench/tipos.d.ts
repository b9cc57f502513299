/**
 * The few calls the PouchDB/CouchDB baseline makes. @types/pouchdb-* and @types/express bring a
 * second @types/node into bench/node_modules that clashes with the app's, so they are declared here.
 */
declare module 'pouchdb-core' {
  interface BancoPouch {
    bulkDocs(docs: object[]): Promise<unknown>;
    replicate: { to(destino: BancoPouch): Promise<unknown> };
    info(): Promise<{ doc_count: number }>;
    destroy(): Promise<unknown>;
  }
  interface ConstrutorPouch {
    new (nome: string, opcoes?: { adapter?: string }): BancoPouch;
    plugin(plugin: unknown): ConstrutorPouch;
    defaults(opcoes: { adapter?: string }): ConstrutorPouch;
  }
  const PouchDB: ConstrutorPouch;
  export default PouchDB;
}
declare module 'pouchdb-adapter-memory' {
  const plugin: unknown;
  export default plugin;
}
declare module 'pouchdb-adapter-http' {
  const plugin: unknown;
  export default plugin;
}
declare module 'pouchdb-replication' {
  const plugin: unknown;
  export default plugin;
}
declare module 'express' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';
  type Manipulador = (req: IncomingMessage, res: ServerResponse, next: (erro?: unknown) => void) => void;
  interface AppExpress {
    use(caminho: string, manipulador: Manipulador): void;
    listen(porta: number, host: string, pronto: () => void): Server;
  }
  export default function express(): AppExpress;
}
declare module 'express-pouchdb' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  export default function expressPouchdb(
    PouchDB: unknown,
    opcoes?: { mode?: 'fullCouchDB' | 'minimumForPouchDB' | 'custom'; inMemoryConfig?: boolean; logPath?: string },
  ): (req: IncomingMessage, res: ServerResponse, next: (erro?: unknown) => void) => void;
}
