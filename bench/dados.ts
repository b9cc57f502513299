/**
 * A year of data for the load benchmarks: 50 employees, 250 working days, ~125,000 sales,
 * ~50,000 expenses with their ledger movements, monthly routes of 25 cities. Written straight
 * to SQLite with prepared statements (the API is not what is being measured here).
 */
import { v7 as uuidv7 } from 'uuid';
import { somarDias } from '../shared/dates';
import { normalizarBusca } from '../shared/texto';
import type { Db } from '../server/src/db';
import { gerarHashSenha } from '../server/src/auth/senha';

export interface OpcoesDados {
  funcionarios: number;
  diasUteis: number;
  vendasPorDia: number;
  despesasPorDia: number;
  cidadesPorRota: number;
  /** Last working day (the "today" of the data set). */
  ultimoDia: string;
}

export const PADRAO: OpcoesDados = {
  funcionarios: 50,
  diasUteis: 250,
  vendasPorDia: 10,
  despesasPorDia: 4,
  cidadesPorRota: 25,
  ultimoDia: '2026-11-20',
};

export interface DadosGerados {
  senha: string;
  emails: string[];
  rotasAtivas: number[];
  rotaDoPrimeiro: number;
  vendas: number;
  despesas: number;
}

/** A deterministic pseudo-random sequence, so every run measures the same data. */
function aleatorio(semente: number) {
  let s = semente >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function diasUteis(ultimo: string, quantos: number): string[] {
  const dias: string[] = [];
  let d = ultimo;
  while (dias.length < quantos) {
    const semana = new Date(`${d}T12:00:00Z`).getUTCDay();
    if (semana !== 0 && semana !== 6) dias.unshift(d);
    d = somarDias(d, -1);
  }
  return dias;
}

export async function gerarAnoDeDados(db: Db, opcoes: OpcoesDados = PADRAO): Promise<DadosGerados> {
  const sqlite = db.$client;
  const sorte = aleatorio(2026);
  const senha = 'bench12345';
  const hash = await gerarHashSenha(senha);
  const dias = diasUteis(opcoes.ultimoDia, opcoes.diasUteis);

  // 2,000 synthetic cities spread over the 27 UFs (the real list is not needed to load the API).
  const ufs = sqlite.prepare('select uf from estados').all() as { uf: string }[];
  const inserirCidade = sqlite.prepare('insert or ignore into cidades (id, nome, nome_busca, uf) values (?, ?, ?, ?)');
  const cidades: number[] = [];
  sqlite.transaction(() => {
    for (let i = 0; i < 2000; i++) {
      const id = 9_000_000 + i;
      const nome = `Cidade Bench ${i}`;
      inserirCidade.run(id, nome, normalizarBusca(nome), ufs[i % ufs.length]!.uf);
      cidades.push(id);
    }
  })();

  const inserirUsuario = sqlite.prepare("insert into usuarios (nome, email, senha_hash, tipo) values (?, ?, ?, 'funcionario')");
  const inserirRota = sqlite.prepare(
    'insert into rotas (nome, funcionario_id, tem_secretario, valor_aluguel_centavos, data_inicio, data_fim, status) values (?, ?, ?, ?, ?, ?, ?)',
  );
  const inserirRotaCidade = sqlite.prepare('insert into rota_cidades (rota_id, cidade_id, ordem) values (?, ?, ?)');
  const inserirVenda = sqlite.prepare(
    'insert into vendas (id, rota_id, cidade_id, funcionario_id, data_venda, dinheiro_centavos, pix_centavos, cartao_centavos, link_centavos, boletos, registrado_em) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const inserirVisita = sqlite.prepare(
    'insert or ignore into visitas (id, rota_id, cidade_id, funcionario_id, data, registrado_em) values (?, ?, ?, ?, ?, ?)',
  );
  const inserirDespesa = sqlite.prepare(
    "insert into despesas (id, rota_id, cidade_id, funcionario_id, data_despesa, tipo, valor_centavos, descricao, status_aprovacao, registrado_em) values (?, ?, ?, ?, ?, ?, ?, 'bench', ?, ?)",
  );
  const inserirMovimento = sqlite.prepare(
    'insert into movimentacoes_saldo (funcionario_id, tipo, valor_centavos, saldo_anterior_centavos, saldo_novo_centavos, descricao, rota_id, despesa_id, data_movimentacao) values (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const tipos = ['alimentacao', 'hospedagem', 'combustivel', 'pedagio', 'aluguel_sala'];
  const emails: string[] = [];
  const rotasAtivas: number[] = [];
  let vendas = 0;
  let despesas = 0;

  sqlite.transaction(() => {
    for (let f = 0; f < opcoes.funcionarios; f++) {
      const email = `bench${f}@escola.com.br`;
      emails.push(email);
      const funcionarioId = Number(inserirUsuario.run(`Funcionário Bench ${f}`, email, hash).lastInsertRowid);
      let saldo = 0;
      // One route per ~21 working days; the last one stays active.
      for (let inicio = 0; inicio < dias.length; inicio += 21) {
        const periodo = dias.slice(inicio, inicio + 21);
        const ultima = inicio + 21 >= dias.length;
        const rotaId = Number(
          inserirRota.run(`Rota ${f}-${inicio / 21}`, funcionarioId, sorte() < 0.3 ? 1 : 0, 50_000, periodo[0], periodo[periodo.length - 1], ultima ? 'ativa' : 'finalizada')
            .lastInsertRowid,
        );
        if (ultima) rotasAtivas.push(rotaId);
        const daRota = Array.from({ length: opcoes.cidadesPorRota }, (_, i) => cidades[(f * 97 + inicio * 13 + i * 7) % cidades.length]!);
        daRota.forEach((c, ordem) => inserirRotaCidade.run(rotaId, c, ordem));
        const credito = 300_000;
        inserirMovimento.run(funcionarioId, 'credito', credito, saldo, saldo + credito, 'Adiantamento', rotaId, null, `${periodo[0]}T11:00:00.000Z`);
        saldo += credito;
        for (const dia of periodo) {
          const registrado = `${dia}T20:00:00.000Z`;
          for (let v = 0; v < opcoes.vendasPorDia; v++) {
            const cidade = daRota[(v + dias.indexOf(dia)) % daRota.length]!;
            inserirVenda.run(
              uuidv7(),
              rotaId,
              cidade,
              funcionarioId,
              dia,
              Math.floor(sorte() * 50_000),
              Math.floor(sorte() * 80_000),
              Math.floor(sorte() * 60_000),
              Math.floor(sorte() * 20_000),
              Math.floor(sorte() * 4),
              registrado,
            );
            inserirVisita.run(uuidv7(), rotaId, cidade, funcionarioId, dia, registrado);
            vendas += 1;
          }
          for (let d = 0; d < opcoes.despesasPorDia; d++) {
            const id = uuidv7();
            const valor = 1_000 + Math.floor(sorte() * 15_000);
            inserirDespesa.run(id, rotaId, daRota[d % daRota.length]!, funcionarioId, dia, tipos[d % tipos.length], valor, sorte() < 0.7 ? 'aprovada' : 'pendente', registrado);
            inserirMovimento.run(funcionarioId, 'debito', valor, saldo, saldo - valor, 'Despesa', rotaId, id, registrado);
            saldo -= valor;
            despesas += 1;
          }
        }
      }
    }
  })();
  sqlite.pragma('optimize');
  return { senha, emails, rotasAtivas, rotaDoPrimeiro: rotasAtivas[0]!, vendas, despesas };
}
