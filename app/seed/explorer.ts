import { type ExplorerDocument, explorerDocument } from "~/models/explorer.server";
import { CHANNELS } from "~/models/planning.server";
import { randomInstantBefore, type SeedContext, scaled } from "./context";
import type { Random } from "./random";
import { BRANCHES, BRANDS, COST_CENTERS, TAXONOMY } from "./vocabulary";

type Slots = {
  brand: string;
  city: string;
  pct: number;
  qty: string;
  channel: string;
  area: string;
  category: string;
  month: string;
};
type Template = {
  category: string;
  titles: readonly ((s: Slots) => string)[];
  sentences: readonly ((s: Slots) => string)[];
};

const MONTHS = [
  "janeiro",
  "fevereiro",
  "março",
  "abril",
  "maio",
  "junho",
  "julho",
  "agosto",
  "setembro",
  "outubro",
  "novembro",
  "dezembro",
];

const TEMPLATES: readonly Template[] = [
  {
    category: "Vendas",
    titles: [
      (s) => `Resultado de vendas da marca ${s.brand} em ${s.month}`,
      (s) => `Crescimento do canal ${s.channel} na categoria ${s.category}`,
      (s) => `Sell-out da loja de ${s.city} acima da meta`,
    ],
    sentences: [
      (s) => `As vendas da marca ${s.brand} cresceram ${s.pct}% em relação ao mesmo período do ano anterior.`,
      (s) => `O canal ${s.channel} respondeu por ${s.pct}% do volume vendido de ${s.category}.`,
      (s) => `A loja de ${s.city} vendeu ${s.qty} unidades no mês, com destaque para os lançamentos.`,
      (s) => `A equipe comercial recomenda reforçar o estoque de ${s.category} antes da próxima campanha.`,
      () => "O ticket médio subiu após a ativação do programa de fidelidade.",
    ],
  },
  {
    category: "Logística",
    titles: [
      (s) => `Nível de serviço do centro de distribuição em ${s.month}`,
      (s) => `Ruptura de estoque de ${s.category} na região de ${s.city}`,
    ],
    sentences: [
      (s) => `O nível de serviço de entregas ficou em ${90 + (s.pct % 10)}% no período.`,
      (s) => `Foram expedidas ${s.qty} caixas para o canal ${s.channel}.`,
      (s) => `A ruptura de ${s.category} em ${s.city} foi causada por atraso no recebimento de embalagens.`,
      () => "O novo roteiro de coleta reduziu o tempo médio de entrega em dois dias.",
      () => "O inventário rotativo apontou divergência abaixo do limite tolerado.",
    ],
  },
  {
    category: "Energia",
    titles: [(s) => `Geração solar das usinas em ${s.month}`, (s) => `Economia de energia nas lojas de ${s.city}`],
    sentences: [
      (s) => `As usinas de geração distribuída produziram ${s.qty} MWh, ${s.pct}% acima do previsto.`,
      (s) => `As lojas de ${s.city} reduziram o consumo de energia elétrica em ${s.pct}% com a troca da iluminação.`,
      () => "A comercialização de energia no mercado livre manteve a margem planejada.",
      () => "A manutenção preventiva dos inversores foi concluída sem interrupção da geração.",
    ],
  },
  {
    category: "Financeiro",
    titles: [(s) => `Fechamento contábil de ${s.month}`, (s) => `Revisão de forecast do centro de custo ${s.area}`],
    sentences: [
      (s) => `O centro de custo ${s.area} encerrou o mês ${s.pct}% abaixo do orçamento.`,
      () => "As despesas com pessoal seguiram em linha com o forecast da última revisão.",
      (s) => `O capital de giro foi impactado pela compra antecipada de ${s.category}.`,
      () => "A controladoria solicita a justificativa das variações acima de dez por cento.",
    ],
  },
  {
    category: "Recursos Humanos",
    titles: [
      (s) => `Treinamento de consultoras de beleza em ${s.city}`,
      (s) => `Indicadores de equipe das lojas em ${s.month}`,
    ],
    sentences: [
      (s) => `${s.qty} colaboradores concluíram o treinamento de produtos da marca ${s.brand}.`,
      (s) => `O absenteísmo nas lojas de ${s.city} caiu ${s.pct}% no trimestre.`,
      () => "O desafio mensal de serviços teve adesão de todas as filiais.",
      () => "A pesquisa de clima apontou melhora na comunicação entre lojas e escritório.",
    ],
  },
  {
    category: "Marketing",
    titles: [(s) => `Campanha de lançamento ${s.brand}`, (s) => `Resultados de mídia digital em ${s.month}`],
    sentences: [
      (s) => `A campanha da marca ${s.brand} alcançou ${s.qty} pessoas nas redes sociais.`,
      (s) => `O investimento em mídia digital gerou retorno de ${s.pct}% sobre o planejado.`,
      (s) => `As amostras grátis de ${s.category} aumentaram a conversão no canal ${s.channel}.`,
      () => "O material de ponto de venda foi distribuído para todas as lojas próprias.",
    ],
  },
];

const SOURCES = [
  "Intranet",
  "Relatório semanal",
  "Ata de reunião",
  "E-mail corporativo",
  "Base de conhecimento",
  "Comunicado interno",
];

function formatQty(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
}

function slots(random: Random, date: Date): Slots {
  const principal = random.pick(TAXONOMY);
  return {
    brand: random.pick(BRANDS),
    city: random.pick(BRANCHES)[0],
    pct: random.int(2, 35),
    qty: formatQty(random.int(120, 95_000)),
    channel: random.pick(CHANNELS),
    area: random.pick(COST_CENTERS)[0],
    category: random.pick(principal.categories).category.toLowerCase(),
    month: `${MONTHS[date.getUTCMonth()]} de ${date.getUTCFullYear()}`,
  };
}

export function generateExplorerDocuments(ctx: SeedContext): ExplorerDocument[] {
  const random = ctx.random.fork("explorer_documents");
  return Array.from({ length: scaled(ctx, 3_000, 20) }, () => {
    const date = randomInstantBefore(random, ctx.reference, 3 * 365);
    const template = random.pick(TEMPLATES);
    const s = slots(random, date);
    const title = random.pick(template.titles)(s);
    const body = random
      .sample(template.sentences, random.int(2, 4))
      .map((sentence) => sentence(s))
      .join(" ");
    return explorerDocument({
      _id: random.objectId(date),
      title,
      body,
      source: random.pick(SOURCES),
      category: template.category,
      date,
    });
  });
}
