/** docs/performance.md from the benchmark results (bench/index.ts). */
import type { Resultados } from './index';
import { secaoCampo } from './campo';
import { secaoLeituras } from './leituras';
import { secaoLeiturasAdmin } from './leituras-admin';
import { secaoLighthouse } from './lighthouse';

const pct = (r: number) => `${(r * 100).toFixed(0)}%`;
const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
const int = (n: number) => Math.round(n).toLocaleString('pt-BR');
const ok = (passou: boolean) => (passou ? 'sim' : '**não**');
const dia = (iso: string) => iso.slice(0, 16).replace('T', ' ') + ' UTC';

function secaoApi(api: NonNullable<Resultados['api']>): string {
  const linhas = api.medidas.map(
    (m) =>
      `| ${m.nome} | ${int(m.rps)} | ${pct(m.razao)} | ${m.p50} | ${m.p99} | ${kb(m.bytes)} | ${ok(m.passou)} | ${m.tetoMesmoTamanho ? `${int(m.tetoMesmoTamanho.rps)} (${pct(m.tetoMesmoTamanho.razao)})` : '—'} | ${int(m.semCache.rps)} (${pct(m.semCache.razao)}) | ${m.semCache.p99} | ${kb(m.semCache.bytes)} |`,
  );
  const falhas = api.medidas.filter((m) => !m.passou);
  const fechamento = api.medidas.find((m) => m.caminho.startsWith('/vendas/fechamento-diario'));
  return `## API sob carga

Um ano de dados (${int(api.dados.vendas)} vendas, ${int(api.dados.despesas)} despesas; 50 funcionários, 250 dias úteis),
autocannon no loopback, ${api.conexoes} conexões, ${api.segundos} s por endpoint depois de 2 s de aquecimento,
aceitando gzip como um navegador. Teto: uma rota "olá" do Fastify no mesmo processo-tipo, medida na mesma
execução: **${int(api.teto.rps)} req/s**, p99 ${api.teto.p99} ms. Meta: cada endpoint a 30% do teto ou mais,
p99 abaixo de 50 ms. Medido em ${dia(api.medidoEm)}.

| Endpoint | req/s | % do teto | p50 ms | p99 ms | resposta | meta | teto com a mesma resposta: req/s (% dele) | sem cache: req/s (% teto) | p99 ms | resposta |
|---|---:|---:|---:|---:|---:|:-:|---:|---:|---:|---:|
${linhas.join('\n')}

"Teto com a mesma resposta" é a rota "olá" devolvendo exatamente o corpo que o endpoint devolveu (em gzip, com o
mesmo content-type e content-encoding; sem os ~0,7 KB de cabeçalhos de segurança do app), já pronto: o que custam o fio e o gerador de carga
para aquela resposta, sem trabalho nenhum atrás. "Sem cache" é o mesmo endpoint com o cache de leituras desligado: toda resposta calculada no SQLite, como
logo depois de uma sincronização (qualquer escrita invalida o cache). É o custo de pior caso, medido em
metade do tempo; as metas valem para o servidor como ele roda.

- **O cache de leituras** (\`server/src/plugins/cache-leituras.ts\`) guarda a resposta de cada GET pesado
  por usuário, URL e dia de negócio enquanto o banco não muda (\`total_changes\` + \`data_version\`, que
  também vê commits de outro processo), já comprimida em gzip. Entre duas sincronizações, o admin que
  atualiza o painel e o funcionário que reabre a tela recebem a mesma resposta sem consulta nem serialização.
${
    fechamento
      ? `- **Fechamento diário** devolve todas as vendas do filtro: cerca de 500 linhas no dia medido, ${kb(fechamento.semCache.bytes)} de JSON,
  ${kb(fechamento.bytes)} em gzip. É o que a tela de Vendas do admin mostra, busca e exporta de uma vez (a spec pagina na tela).
  **Fica abaixo da meta** (${pct(fechamento.razao)} do teto, p99 ${fechamento.p99} ms), e o limite é o gerador de carga, não o servidor:
  a rota "olá" devolvendo exatamente a mesma resposta faz ${fechamento.tetoMesmoTamanho ? int(fechamento.tetoMesmoTamanho.rps) : '—'} req/s, e o endpoint chega a
  ${fechamento.tetoMesmoTamanho ? pct(fechamento.tetoMesmoTamanho.razao) : '—'} disso. O autocannon junta o corpo de cada resposta numa string
  (\`req.body += data\` em \`lib/pipelinedRequestsQueue.js\`), o que decodifica os bytes como UTF-8; para 27 KB de gzip (bytes que
  não são texto) isso custa ~0,4 ms de CPU por resposta do lado dele, contra ~0,06 ms para 27 KB de letras ASCII. Medido à parte
  com uma conexão: o autocannon ocupa um núcleo inteiro e o servidor fica ~70% ocioso, gastando por resposta o mesmo que o
  dashboard (~0,13–0,16 ms de CPU). Um navegador descomprime o corpo uma vez, em código nativo, e não paga isso. Sem filtro de
  data, a tela carrega a rota ativa inteira; num ano de dados isso chega a milhares de linhas, e paginar no servidor é o
  próximo passo se as rotas crescerem.`
      : ''
  }
${falhas.length ? `- **Abaixo da meta nesta execução:** ${falhas.map((m) => `${m.nome} (${pct(m.razao)}, p99 ${m.p99} ms${m.tetoMesmoTamanho && m.tetoMesmoTamanho.razao >= 0.9 ? `; ${pct(m.tetoMesmoTamanho.razao)} do teto com a mesma resposta: o gerador de carga é o limite` : ''})`).join('; ')}. Com 2 núcleos, o gerador de carga e o servidor disputam a mesma CPU; a razão varia alguns pontos entre execuções.\n` : ''}`;
}

function secaoSync(sync: NonNullable<Resultados['sync']>): string {
  const linhas = sync.medidas.map(
    (m) =>
      `| ${int(m.vendas)} | ${int(m.app.porSegundo)} (${m.app.lotes} lotes) | ${int(m.limite.porSegundo)} | ${int(m.par.porSegundo)} | ${pct(m.razaoLimite)} | ${m.razaoPar.toFixed(1)}x | ${int(m.app.reenvioMs)} ms | ${ok(m.passou)} |`,
  );
  return `## Sincronização

Um celular reenvia uma fila de vendas em sequência, como o app faz. Três lados na mesma execução, cada um em
processo e banco novos, depois de aquecer com ${int(sync.aquecimento ?? 400)} outros registros (um servidor no ar
há alguns dias já viu isso; com menos, mede-se o JIT compilando o caminho do app) e de uma pausa de 300 ms
antes de cada medida, igual para os três (o V8 termina de otimizar em segundo plano; com 2 núcleos isso
disputava a CPU dentro de uma medida de ~50 ms), mediana de ${sync.repeticoes} rodadas
intercaladas. Medido em ${dia(sync.medidoEm)}.

- **app**: \`POST /api/sync/lote\` em lotes de 200 (o tamanho que o app usa), autenticado, no formato do protocolo
  (\`{ cliente_id, operacoes: [{ id, tipo, seq, dados }] }\`, valores em centavos), cada operação conferida pelo esquema do
  seu tipo e pela mesma regra do endpoint sozinho (rota do funcionário no período ativo, cidade da rota, data não futura),
  procurada no registro de operações (uma consulta por lote) e gravada nele na mesma transação do efeito; a venda faz a
  cidade contar como visitada no dia.
- **limite**: os mesmos registros em lotes de 50 para uma rota Fastify que só os insere (better-sqlite3,
  uma transação por lote, sem validação).
- **par**: PouchDB no "celular" replicando os mesmos registros para express-pouchdb (protocolo CouchDB), o
  que uma equipe escolheria para sincronizar offline.

Metas (issue 16, com o registro de operações): 70% das linhas por segundo do limite e 5x o par.

| Vendas | app/s | limite/s | PouchDB/s | % do limite | x PouchDB | reenvio do mesmo lote | meta |
|---|---:|---:|---:|---:|---:|---:|:-:|
${linhas.join('\n')}

"Reenvio" é a fila inteira mandada de novo (a resposta se perdeu): nada é gravado duas vezes.

${sync.medidas.every((m) => m.passou) ? '**As metas são atingidas.**' : '**As metas não são atingidas.**'} O limite insere uma linha e não olha nada; cada venda
do app passa por isto (perfil de CPU do servidor quente, 7.000 vendas chamando \`processarLote\` direto, sem HTTP,
~31 µs por venda):

| por venda, no servidor | parte do tempo |
|---|---:|
| validação pelo esquema compartilhado (o mesmo zod da tela e do endpoint sozinho) | ~39% |
| gravar a venda (um insert, 5 índices, chaves estrangeiras) | ~32% |
| commit de cada trecho do lote | ~9% |
| leituras de segurança: o id já existe (reenvio)? rota ativa do funcionário e cidade da rota | ~9% |
| o resto (rotear a escrita, recibo) | ~11% |

Essa divisão é do perfil de antes do protocolo da issue 16. Desde então cada operação também grava uma linha no
registro de operações (\`operacoes_aplicadas\`, na mesma transação) e o lote faz uma consulta para saber quais já
foram aplicadas; o tipo de cada operação é validado pelo esquema dele, sem casar método e caminho por expressão regular.

O que levou o app de 30% para a meta (cada passo com teste; detalhes em \`docs/decisions.md\`):

- **A venda já é a visita**: toda leitura de "visitada" (situação do dia, salário, relatórios) já olhava vendas e
  visitas, então a linha em \`visitas\` que cada venda gravava era redundante; sem ela, ~30% menos tempo por venda.
- **Uma leitura por regra, e lembrada no lote**: rota do funcionário, situação e cidade da rota numa consulta só,
  lembrada durante o trecho do lote (200 vendas de uma rota fazem as mesmas poucas perguntas) e esquecida depois de
  qualquer escrita que não seja marcada como "não muda rotas" (finalizar a rota esquece; teste com venda, finalizar
  e venda no mesmo lote).
- **A venda nova é inserida direto** (\`on conflict do nothing\`); a venda do dia só é procurada quando
  (rota, cidade, data) já está ocupada. A hora de recebimento do recibo vem do próprio insert.
- **Checkpoint do WAL a cada 4.000 páginas** (16 MB) em vez de 1.000: os fsyncs dos checkpoints eram ~15% do
  tempo de uma fila longa. O limite usa a mesma configuração.
- **O insert e a consulta da rota direto no better-sqlite3**, com o SQL gerado pelo drizzle (\`preparadaDireta\`:
  como cada placeholder vira valor é resolvido uma vez, não a cada chamada).
- **Aquecimento de 2.000 registros e pausa de 300 ms** por lado: com 400 e sem pausa, o caminho do app ainda
  estava sendo compilado pelo JIT durante a medida (~1,6x o custo quente por venda), e o limite aquece em poucas
  dezenas de linhas. Cinco rodadas em vez de três: uma medida de 1.000 vendas dura ~50 ms.
- De antes: trechos do lote sem um savepoint por escrita (refeitos com savepoints só se algo for recusado),
  recibos em vez de registros relidos (~116 KB → ~20 KB por lote de 200), resposta do lote sem esquema de
  resposta, consultas preparadas, a data de hoje no fuso memorizada.

Contra o PouchDB o app fica entre ${Math.min(...sync.medidas.map((m) => m.razaoPar)).toFixed(1)}x e ${Math.max(...sync.medidas.map((m) => m.razaoPar)).toFixed(1)}x: o par não valida nada e grava um documento por venda, mas paga
revisões e o protocolo de replicação.
`;
}

function secaoCliente(c: NonNullable<Resultados['cliente']>): string {
  const arquivos = c.js.arquivos
    .slice(0, 10)
    .map((a) => `| ${a.nome} | ${kb(a.bytes)} | ${kb(a.gzip)} | ${a.primeiraTela ? 'primeira tela' : c.js.logoDepoisArquivos?.includes(a.nome) ? 'logo depois' : 'Vendas'} |`);
  return `## Cliente no celular

Chromium headless a 390x844, o cliente compilado de verdade e o servidor real. Medido em ${dia(c.medidoEm)}.

**JavaScript da primeira tela do funcionário** (o app aberto já logado, contado quando o dashboard mostra
"Rota Ativa"; scripts carregados pela página, gzip nível 9): **${kb(c.js.primeiraTelaFuncionario)}**, meta abaixo de
200 KB: ${ok(c.js.passou)}. Linha de base na mesma execução: um app React mínimo compilado pelo mesmo Vite,
${kb(c.js.reactMinimo)} (a primeira tela é ${c.js.razaoReact.toFixed(1)}x isso). A tela de login de um celular que
nunca abriu o app carrega ${kb(c.js.login)}; abrir Vendas soma ${kb(c.js.vendasAMais)}.

| arquivo | bytes | gzip | carregado |
|---|---:|---:|:-:|
${arquivos.join('\n')}

${
    c.js.logoDepois > 0
      ? `Logo depois (em 1,5 s com os números na tela) o dashboard carrega mais ${kb(c.js.logoDepois)}: ${c.js.logoDepoisArquivos.join(', ')} (o cartão 'Pronto para viajar', abaixo dos números, espera meio segundo para não disputar com eles). O grosso é React DOM, React Router e Dexie, que a primeira tela usa de fato. O zod (os esquemas compartilhados com o servidor) chega só com as telas que validam: a primeira tela não valida nada, lê a fila com leitores pequenos (\`client/src/offline/leitor.ts\`), e \`client/src/app/primeiraTela.test.ts\` falha se algo que ela roda voltar a importá-lo.\n\n`
      : ''
  }O que mantém a primeira tela abaixo da meta: páginas carregadas sob demanda e separadas por papel (o
funcionário nunca baixa o painel do admin, a exportação ou a tabela de vendas do admin), a tela de login e o
painel de sincronização sob demanda, e o
aviso de atualização (workbox-window) depois que a tela ficou pronta; o service worker é registrado na hora.

**Vendas com ${c.vendas60.cidades} cidades**: o app instalado (service worker e IndexedDB quentes, como no
celular de todo dia), CPU ${c.vendas60.lentidaoCpu}x mais lenta (um Android intermediário), cada visita numa aba
nova: mediana **${int(c.vendas60.medianaMs)} ms** até "Em aberto (${c.vendas60.cidades})" aparecer (tentativas:
${c.vendas60.tentativasMs.map((t) => int(t)).join(', ')} ms). Linha de base na mesma execução e no mesmo navegador:
a casca do app até o formulário de login, ${int(c.vendas60.cascaMs)} ms; Vendas leva ${c.vendas60.razaoCasca.toFixed(1)}x
isso, incluindo ler rota, cidades, situação do dia e histórico do cache do aparelho e desenhar 12 cartões.
`;
}

export function relatorio(r: Resultados): string {
  const m = r.maquina;
  const partes = [
    `# Desempenho

Gerado por \`npm run bench\` (\`bench/\`); não edite à mão. Cada número é uma razão contra uma linha de base
medida na mesma execução, na mesma máquina: ${m ? `${m.cpus} núcleos (${m.modelo}), ${m.memoriaGiB} GiB, Node ${m.node}` : '—'}.
Números absolutos mudam de máquina para máquina; as razões mudam bem menos. Resultados brutos em
\`bench/resultados.json\`. \`BENCH_SO=api|sync|cliente\` roda só uma parte; \`BENCH_PERFIL=1\` grava perfis de CPU
dos servidores em \`bench/.results/perfil\`.

## Resumo

| Medida | Resultado | Meta | Atingida |
|---|---|---|:-:|
${r.api ? r.api.medidas.map((x) => `| API: ${x.nome} | ${pct(x.razao)} do teto, p99 ${x.p99} ms | ≥ 30%, p99 < 50 ms | ${ok(x.passou)} |`).join('\n') : ''}
${r.sync ? r.sync.medidas.map((x) => `| Sync de ${int(x.vendas)} vendas | ${pct(x.razaoLimite)} do limite, ${x.razaoPar.toFixed(1)}x o PouchDB | ≥ 70%, ≥ 5x | ${ok(x.passou)} |`).join('\n') : ''}
${r.cliente ? `| JS da primeira tela do funcionário | ${kb(r.cliente.js.primeiraTelaFuncionario)} gzip | < 200 KB | ${ok(r.cliente.js.passou)} |\n| Vendas com ${r.cliente.vendas60.cidades} cidades (CPU ${r.cliente.vendas60.lentidaoCpu}x) | ${int(r.cliente.vendas60.medianaMs)} ms, ${r.cliente.vendas60.razaoCasca.toFixed(1)}x a casca até o login | — | — |` : ''}
`,
  ];
  if (r.api) partes.push(secaoApi(r.api));
  if (r.sync) partes.push(secaoSync(r.sync));
  if (r.cliente) partes.push(secaoCliente(r.cliente));
  if (r.leituras) partes.push(secaoLeituras(r.leituras));
  if (r.leiturasAdmin) partes.push(secaoLeiturasAdmin(r.leiturasAdmin));
  if (r.lighthouse) partes.push(secaoLighthouse(r.lighthouse));
  if (r.campo) partes.push(secaoCampo(r.campo));
  return `${partes.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
