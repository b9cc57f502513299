/** Two app processes behind a round-robin proxy on one SQLite database in DATA_DIR. */
import { descreverDoisProcessos } from './cenarioDoisProcessos';

descreverDoisProcessos({ nome: 'SQLite', disponivel: true, preparar: async () => ({}), parar: async () => {} });
