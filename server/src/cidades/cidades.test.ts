import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { criarAppDeTeste, esperarRecusa, type AppDeTeste } from '../../test/helper';

interface Cidade {
  id: number;
  nome: string;
  uf: string;
}

let t: AppDeTeste;
let token: string;
beforeAll(async () => {
  t = await criarAppDeTeste();
  // Cities are for any signed-in user: the employee is the one who uses them most.
  token = (await t.criarFuncionario()).token;
});
afterAll(() => t.fechar());

const get = (url: string) => t.chamar({ method: 'GET', url, token });
async function buscar(consulta: string): Promise<Cidade[]> {
  const r = await get(`/api/cidades/search?${consulta}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().cidades;
}
const nomes = (lista: Cidade[]) => lista.map((c) => c.nome);

describe('GET /api/estados', () => {
  it('lista os estados carregados, por nome', async () => {
    const r = await get('/api/estados');
    expect(r.statusCode).toBe(200);
    expect(r.json().estados).toEqual([
      { uf: 'BA', nome: 'Bahia' },
      { uf: 'GO', nome: 'Goiás' },
      { uf: 'MG', nome: 'Minas Gerais' },
      { uf: 'PR', nome: 'Paraná' },
      { uf: 'SP', nome: 'São Paulo' },
    ]);
  });
});

describe('GET /api/cidades', () => {
  it('sem uf: todas as cidades, com id IBGE, nome e uf', async () => {
    const r = await get('/api/cidades');
    expect(r.statusCode).toBe(200);
    const cidades: Cidade[] = r.json().cidades;
    expect(cidades).toHaveLength(24);
    expect(cidades).toContainEqual({ id: 3550308, nome: 'São Paulo', uf: 'SP' });
    expect(cidades).toContainEqual({ id: 5208707, nome: 'Goiânia', uf: 'GO' });
  });

  it('com uf: só as daquele estado, em ordem alfabética (acentos não atrapalham)', async () => {
    const r = await get('/api/cidades?uf=GO');
    expect(r.statusCode).toBe(200);
    expect(nomes(r.json().cidades)).toEqual(['Anápolis', 'Caldas Novas', 'Catalão', 'Goiânia', 'Itumbiara', 'Pirenópolis', 'Rio Verde']);
  });

  it('uf em minúsculas funciona; uf sem cidades devolve lista vazia', async () => {
    expect(nomes((await get('/api/cidades?uf=ba')).json().cidades)).toEqual(['Ilhéus', 'Salvador']);
    const r = await get('/api/cidades?uf=AC');
    expect(r.statusCode).toBe(200);
    expect(r.json().cidades).toEqual([]);
  });

  it.each(['XYZ', 'S', '12', "S'"])('uf inválida (%s): 400 "UF inválida."', async (uf) => {
    esperarRecusa(await get(`/api/cidades?uf=${encodeURIComponent(uf)}`), 400, 'dados_invalidos', 'UF inválida.');
  });

  it('uf repetida na URL: 400, não 500', async () => {
    esperarRecusa(await get('/api/cidades?uf=SP&uf=GO'), 400, 'dados_invalidos', 'UF inválida.');
  });
});

describe('GET /api/cidades/search', () => {
  it("'sao' acha 'São Paulo' e 'São José do Rio Preto' (sem acento nem caixa)", async () => {
    const achadas = nomes(await buscar('q=sao'));
    expect(achadas).toEqual(expect.arrayContaining(['São Paulo', 'São José do Rio Preto', 'São João del Rei']));
    expect(achadas.every((n) => n.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().includes('sao'))).toBe(true);
  });

  it("'SAO', 'São' e ' sao ' dão o mesmo resultado", async () => {
    const base = await buscar('q=sao');
    expect(await buscar('q=SAO')).toEqual(base);
    expect(await buscar(`q=${encodeURIComponent('São')}`)).toEqual(base);
    expect(await buscar(`q=${encodeURIComponent(' sao ')}`)).toEqual(base);
  });

  it("'goiania' acha 'Goiânia'; 'sao paulo' acha São Paulo", async () => {
    expect(await buscar('q=goiania')).toEqual([{ id: 5208707, nome: 'Goiânia', uf: 'GO' }]);
    expect(nomes(await buscar('q=sao%20paulo'))).toEqual(['São Paulo']);
  });

  it('o filtro de uf restringe ao estado', async () => {
    const sp = await buscar('q=sao&uf=SP');
    expect(nomes(sp).sort()).toEqual(['São José do Rio Preto', 'São Paulo']);
    expect(await buscar('q=sao&uf=go')).toEqual([]);
    expect(nomes(await buscar('q=sao&uf=MG'))).toEqual(['São João del Rei']);
  });

  it('nomes que começam com o texto vêm antes dos que só o contêm', async () => {
    // 'ri': Ribeirão Preto and Rio Verde start with it; the others only contain it (alphabetical after).
    expect(nomes(await buscar('q=ri'))).toEqual(['Ribeirão Preto', 'Rio Verde', 'Belo Horizonte', 'Londrina', 'Maringá', 'São José do Rio Preto']);
  });

  it('limite corta a lista', async () => {
    expect(await buscar('q=ri&limite=2')).toHaveLength(2);
    esperarRecusa(await get('/api/cidades/search?q=ri&limite=0'), 400, 'dados_invalidos', 'Limite inválido.');
    esperarRecusa(await get('/api/cidades/search?q=ri&limite=abc'), 400, 'dados_invalidos', 'Limite inválido.');
  });

  it.each(['a', ' a ', '', 'ã'])("q de menos de 2 letras (%j): 400 'Digite pelo menos 2 letras para buscar.'", async (q) => {
    esperarRecusa(await get(`/api/cidades/search?q=${encodeURIComponent(q)}`), 400, 'dados_invalidos', 'Digite pelo menos 2 letras para buscar.');
  });

  it('sem q: 400 com a mesma mensagem', async () => {
    esperarRecusa(await get('/api/cidades/search'), 400, 'dados_invalidos', 'Digite pelo menos 2 letras para buscar.');
  });

  it("'%' e '_' valem literalmente, não como curinga", async () => {
    for (const q of ['%%', 'a%', '%a', '__', 'a_', '_a', 's%o', '\\%']) {
      expect(await buscar(`q=${encodeURIComponent(q)}`), q).toEqual([]);
    }
  });

  it('texto com cara de SQL não quebra a busca', async () => {
    expect(await buscar(`q=${encodeURIComponent("sa' OR '1'='1")}`)).toEqual([]);
    expect(await buscar(`q=${encodeURIComponent("'); DROP TABLE cidades;--")}`)).toEqual([]);
    expect((await get('/api/cidades')).json().cidades).toHaveLength(24);
  });

  it('busca longa demais: 400', async () => {
    esperarRecusa(await get(`/api/cidades/search?q=${'a'.repeat(101)}`), 400, 'dados_invalidos', 'Busca longa demais.');
  });
});

describe('acesso', () => {
  it.each(['/api/estados', '/api/cidades', '/api/cidades?uf=SP', '/api/cidades/search?q=sao', '/api/cidades/search?q=a', '/api/cidades?uf=XYZ'])(
    'anônimo em %s: 401',
    async (url) => {
      esperarRecusa(await t.chamar({ method: 'GET', url }), 401, 'nao_autenticado');
    },
  );

  it('o admin também usa', async () => {
    const r = await t.chamar({ method: 'GET', url: '/api/cidades/search?q=sao', token: await t.tokenAdmin() });
    expect(r.statusCode).toBe(200);
  });
});
