/** Word lists for realistic pt-BR demo data of a cosmetics / energy-retail company (all fictional). */

export const BRANDS = [
  "Aurora Bela",
  "Vivace",
  "Flor de Lis",
  "Brisa Tropical",
  "Essenza",
  "Mar Aberto",
  "Cerrado Natural",
  "Lumina",
  "Ipê Dourado",
  "Pura Seiva",
] as const;

type SubCategory = { sub: string; pt: string; en: string; sizes: readonly string[] };
type Category = { category: string; subs: readonly SubCategory[] };

/** categoria_principal_sku → category_sku → sub_categoria_sku, with the product words used in descriptions. */
export const TAXONOMY: readonly { principal: string; weight: number; categories: readonly Category[] }[] = [
  {
    principal: "Makeup",
    weight: 30,
    categories: [
      {
        category: "Lábios",
        subs: [
          { sub: "Batom", pt: "BATOM", en: "LIPSTICK", sizes: ["3,5G", "4G"] },
          { sub: "Gloss", pt: "GLOSS LABIAL", en: "LIP GLOSS", sizes: ["5ML", "8ML"] },
          { sub: "Lápis labial", pt: "LAPIS LABIAL", en: "LIP LINER", sizes: ["1,2G"] },
        ],
      },
      {
        category: "Olhos",
        subs: [
          { sub: "Máscara de cílios", pt: "MASCARA CILIOS", en: "MASCARA", sizes: ["8ML", "10ML"] },
          { sub: "Delineador", pt: "DELINEADOR", en: "EYELINER", sizes: ["2,5ML"] },
          { sub: "Sombra", pt: "PALETA SOMBRAS", en: "EYESHADOW PALETTE", sizes: ["6G", "12G"] },
        ],
      },
      {
        category: "Rosto",
        subs: [
          { sub: "Base", pt: "BASE LIQUIDA", en: "LIQUID FOUNDATION", sizes: ["30ML"] },
          { sub: "Pó compacto", pt: "PO COMPACTO", en: "PRESSED POWDER", sizes: ["10G"] },
          { sub: "Blush", pt: "BLUSH", en: "BLUSH", sizes: ["5G"] },
          { sub: "Corretivo", pt: "CORRETIVO", en: "CONCEALER", sizes: ["7ML"] },
        ],
      },
      { category: "Unhas", subs: [{ sub: "Esmalte", pt: "ESMALTE", en: "NAIL POLISH", sizes: ["8ML", "10ML"] }] },
    ],
  },
  {
    principal: "Skincare",
    weight: 25,
    categories: [
      {
        category: "Facial",
        subs: [
          { sub: "Hidratante facial", pt: "HIDRATANTE FACIAL", en: "FACE MOISTURIZER", sizes: ["50G", "100G"] },
          { sub: "Sérum", pt: "SERUM FACIAL", en: "FACE SERUM", sizes: ["30ML"] },
          { sub: "Limpeza", pt: "GEL DE LIMPEZA", en: "CLEANSING GEL", sizes: ["150ML"] },
          { sub: "Protetor solar", pt: "PROTETOR SOLAR FACIAL", en: "FACE SUNSCREEN", sizes: ["50G"] },
        ],
      },
      {
        category: "Corpo",
        subs: [
          { sub: "Loção corporal", pt: "LOCAO HIDRATANTE", en: "BODY LOTION", sizes: ["200ML", "400ML"] },
          { sub: "Óleo corporal", pt: "OLEO CORPORAL", en: "BODY OIL", sizes: ["100ML"] },
          { sub: "Sabonete", pt: "SABONETE EM BARRA", en: "BAR SOAP", sizes: ["90G", "5X90G"] },
        ],
      },
    ],
  },
  {
    principal: "Haircare",
    weight: 20,
    categories: [
      {
        category: "Lavagem",
        subs: [
          { sub: "Shampoo", pt: "SHAMPOO", en: "SHAMPOO", sizes: ["300ML", "1L"] },
          { sub: "Condicionador", pt: "CONDICIONADOR", en: "CONDITIONER", sizes: ["300ML", "1L"] },
        ],
      },
      {
        category: "Tratamento",
        subs: [
          { sub: "Máscara capilar", pt: "MASCARA CAPILAR", en: "HAIR MASK", sizes: ["250G"] },
          { sub: "Leave-in", pt: "LEAVE-IN", en: "LEAVE-IN", sizes: ["150ML"] },
        ],
      },
      { category: "Finalização", subs: [{ sub: "Óleo capilar", pt: "OLEO CAPILAR", en: "HAIR OIL", sizes: ["60ML"] }] },
    ],
  },
  {
    principal: "Fragrance",
    weight: 15,
    categories: [
      {
        category: "Perfumaria feminina",
        subs: [
          { sub: "Eau de parfum", pt: "EAU DE PARFUM FEM", en: "EAU DE PARFUM WOMEN", sizes: ["50ML", "100ML"] },
          { sub: "Colônia", pt: "DEO COLONIA FEM", en: "COLOGNE WOMEN", sizes: ["75ML", "150ML"] },
        ],
      },
      {
        category: "Perfumaria masculina",
        subs: [
          { sub: "Eau de toilette", pt: "EAU DE TOILETTE MASC", en: "EAU DE TOILETTE MEN", sizes: ["100ML"] },
          { sub: "Colônia", pt: "DEO COLONIA MASC", en: "COLOGNE MEN", sizes: ["100ML"] },
        ],
      },
      {
        category: "Body splash",
        subs: [{ sub: "Body splash", pt: "BODY SPLASH", en: "BODY SPLASH", sizes: ["200ML"] }],
      },
    ],
  },
  {
    principal: "Other",
    weight: 10,
    categories: [
      {
        category: "Acessórios",
        subs: [
          { sub: "Pincel", pt: "PINCEL MAQUIAGEM", en: "MAKEUP BRUSH", sizes: ["UN"] },
          { sub: "Necessaire", pt: "NECESSAIRE", en: "TOILETRY BAG", sizes: ["UN"] },
        ],
      },
      {
        category: "Kits",
        subs: [{ sub: "Kit presente", pt: "KIT PRESENTE", en: "GIFT SET", sizes: ["3 ITENS", "5 ITENS"] }],
      },
    ],
  },
];

/** Variant words [pt, en] appended to descriptions. */
export const VARIANTS: readonly (readonly [string, string])[] = [
  ["ROSA", "PINK"],
  ["NUDE", "NUDE"],
  ["VERMELHO", "RED"],
  ["CORAL", "CORAL"],
  ["MALVA", "MAUVE"],
  ["BRONZE", "BRONZE"],
  ["PRETO", "BLACK"],
  ["MARROM", "BROWN"],
  ["AMORA", "BLACKBERRY"],
  ["CEREJA", "CHERRY"],
  ["BAUNILHA", "VANILLA"],
  ["MARACUJA", "PASSION FRUIT"],
  ["AÇAI", "ACAI"],
  ["CASTANHA", "BRAZIL NUT"],
  ["LAVANDA", "LAVENDER"],
  ["PITANGA", "PITANGA"],
  ["CUPUACU", "CUPUACU"],
  ["ALGODAO", "COTTON"],
  ["FPS 30", "SPF 30"],
  ["FPS 50", "SPF 50"],
  ["PELE OLEOSA", "OILY SKIN"],
  ["PELE SECA", "DRY SKIN"],
  ["CACHOS", "CURLS"],
  ["LISOS", "STRAIGHT HAIR"],
  ["INTENSO", "INTENSE"],
  ["SUAVE", "SOFT"],
];

export const PLC_LOCAL = [
  "1-Concept",
  "2-Development",
  "3-Released",
  "4-Launch Event",
  "5-Phase Out",
  "6-Discontinued",
] as const;
export const PLC_LOCAL_WEIGHTS: readonly (readonly [string, number])[] = [
  ["1-Concept", 3],
  ["2-Development", 5],
  ["3-Released", 60],
  ["4-Launch Event", 15],
  ["5-Phase Out", 12],
  ["6-Discontinued", 5],
];
export const PLC_GLOBAL = ["Active", "New", "Phase Out", "Discontinued"] as const;
export const ABCD_WEIGHTS: readonly (readonly [string, number])[] = [
  ["A", 15],
  ["B", 25],
  ["C", 30],
  ["D", 20],
  ["", 10],
];

export const FIRST_NAMES = [
  "Ana",
  "Beatriz",
  "Camila",
  "Daniela",
  "Eduarda",
  "Fernanda",
  "Gabriela",
  "Helena",
  "Isabela",
  "Juliana",
  "Larissa",
  "Mariana",
  "Natália",
  "Patrícia",
  "Rafaela",
  "Sofia",
  "Tatiane",
  "Vanessa",
  "Yasmin",
  "Aline",
  "Bruno",
  "Carlos",
  "Diego",
  "Eduardo",
  "Felipe",
  "Gustavo",
  "Henrique",
  "Igor",
  "João",
  "Lucas",
  "Marcelo",
  "Nicolas",
  "Otávio",
  "Paulo",
  "Rafael",
  "Rodrigo",
  "Thiago",
  "Vinícius",
  "Wagner",
  "Caio",
  "Luana",
  "Priscila",
  "Renata",
  "Simone",
  "Cláudia",
  "Márcia",
  "Jéssica",
  "Letícia",
  "André",
  "Fábio",
] as const;

export const LAST_NAMES = [
  "Silva",
  "Santos",
  "Oliveira",
  "Souza",
  "Rodrigues",
  "Ferreira",
  "Alves",
  "Pereira",
  "Lima",
  "Gomes",
  "Costa",
  "Ribeiro",
  "Martins",
  "Carvalho",
  "Almeida",
  "Lopes",
  "Soares",
  "Fernandes",
  "Vieira",
  "Barbosa",
  "Rocha",
  "Dias",
  "Nascimento",
  "Andrade",
  "Moreira",
  "Nunes",
  "Marques",
  "Machado",
  "Mendes",
  "Freitas",
  "Cardoso",
  "Ramos",
  "Gonçalves",
  "Santana",
  "Teixeira",
  "Araújo",
  "Pinto",
  "Correia",
  "Monteiro",
  "Campos",
] as const;

/** Branches of the store network: [city, neighbourhood or mall, state]. */
export const BRANCHES: readonly (readonly [string, string, string])[] = [
  ["São Paulo", "Paulista", "SP"],
  ["São Paulo", "Shopping Ibirapuera", "SP"],
  ["Campinas", "Shopping Iguatemi", "SP"],
  ["Santos", "Gonzaga", "SP"],
  ["Rio de Janeiro", "Copacabana", "RJ"],
  ["Rio de Janeiro", "Barra Shopping", "RJ"],
  ["Niterói", "Icaraí", "RJ"],
  ["Belo Horizonte", "Savassi", "MG"],
  ["Uberlândia", "Center Shopping", "MG"],
  ["Curitiba", "Batel", "PR"],
  ["Londrina", "Catuaí", "PR"],
  ["Porto Alegre", "Moinhos de Vento", "RS"],
  ["Florianópolis", "Beira-Mar", "SC"],
  ["Salvador", "Barra", "BA"],
  ["Recife", "Boa Viagem", "PE"],
  ["Fortaleza", "Aldeota", "CE"],
  ["Brasília", "Asa Sul", "DF"],
  ["Goiânia", "Setor Bueno", "GO"],
  ["Manaus", "Adrianópolis", "AM"],
  ["Belém", "Nazaré", "PA"],
  ["Natal", "Ponta Negra", "RN"],
  ["Vitória", "Praia do Canto", "ES"],
];

export const STORE_ROLES: readonly (readonly [string, string, number])[] = [
  ["101", "Consultora de Beleza", 50],
  ["102", "Vendedor(a)", 25],
  ["103", "Caixa", 10],
  ["104", "Estoquista", 8],
  ["105", "Maquiador(a)", 6],
  ["201", "Supervisor(a) de Loja", 4],
  ["301", "Gerente de Loja", 2],
];

export const COST_CENTERS: readonly (readonly [string, string])[] = [
  ["Marketing", "Comercial"],
  ["Vendas Varejo", "Comercial"],
  ["Vendas Atacado", "Comercial"],
  ["E-commerce", "Comercial"],
  ["Trade Marketing", "Comercial"],
  ["Franquias", "Comercial"],
  ["Lojas Próprias SP", "Varejo"],
  ["Lojas Próprias RJ", "Varejo"],
  ["Lojas Próprias Sul", "Varejo"],
  ["Lojas Próprias Nordeste", "Varejo"],
  ["Atendimento ao Cliente", "Varejo"],
  ["Logística", "Operações"],
  ["Centro de Distribuição Cajamar", "Operações"],
  ["Suprimentos", "Operações"],
  ["Compras", "Operações"],
  ["Qualidade", "Operações"],
  ["Manutenção", "Operações"],
  ["P&D Cosméticos", "Operações"],
  ["Engenharia de Energia", "Energia"],
  ["Operação Solar", "Energia"],
  ["Geração Distribuída", "Energia"],
  ["Comercialização de Energia", "Energia"],
  ["Financeiro", "Administrativo"],
  ["Controladoria", "Administrativo"],
  ["Contabilidade", "Administrativo"],
  ["Tesouraria", "Administrativo"],
  ["Fiscal", "Administrativo"],
  ["Crédito e Cobrança", "Administrativo"],
  ["Planejamento Financeiro", "Administrativo"],
  ["Jurídico", "Administrativo"],
  ["Recursos Humanos", "Administrativo"],
  ["Facilities", "Administrativo"],
  ["Segurança Patrimonial", "Administrativo"],
  ["Tecnologia da Informação", "Tecnologia"],
  ["Inteligência de Mercado", "Tecnologia"],
  ["Projetos Especiais", "Tecnologia"],
  ["Diretoria Executiva", "Corporativo"],
  ["Comunicação Corporativa", "Corporativo"],
  ["Sustentabilidade", "Corporativo"],
  ["Auditoria Interna", "Corporativo"],
];

/** Account groups (group_level_2) with [account code, description, typical monthly amount in BRL]. */
export const ACCOUNT_GROUPS: readonly { group: string; accounts: readonly (readonly [string, string, number])[] }[] = [
  {
    group: "Despesas com Pessoal",
    accounts: [
      ["4101001", "Salários e Ordenados", 180000],
      ["4101002", "Encargos Sociais", 65000],
      ["4101003", "Benefícios", 28000],
      ["4101004", "Férias e 13º Salário", 30000],
      ["4101005", "Treinamento", 6000],
    ],
  },
  {
    group: "Despesas Gerais e Administrativas",
    accounts: [
      ["4201001", "Aluguel de Imóveis", 45000],
      ["4201002", "Energia Elétrica", 12000],
      ["4201003", "Telecomunicações", 5000],
      ["4201004", "Material de Escritório", 2000],
      ["4201005", "Serviços de Consultoria", 25000],
      ["4201006", "Viagens e Hospedagem", 9000],
    ],
  },
  {
    group: "Marketing e Vendas",
    accounts: [
      ["4301001", "Mídia Digital", 60000],
      ["4301002", "Eventos e Feiras", 20000],
      ["4301003", "Amostras Grátis", 15000],
      ["4301004", "Comissões sobre Vendas", 40000],
      ["4301005", "Pesquisa de Mercado", 10000],
    ],
  },
  {
    group: "Tecnologia",
    accounts: [
      ["4401001", "Licenças de Software", 18000],
      ["4401002", "Serviços em Nuvem", 22000],
      ["4401003", "Suporte Técnico", 8000],
    ],
  },
  {
    group: "Logística e Fretes",
    accounts: [
      ["4501001", "Fretes sobre Vendas", 50000],
      ["4501002", "Armazenagem", 20000],
      ["4501003", "Embalagens", 12000],
    ],
  },
];

export const STORE_CHAIN_PREFIXES = [
  "Drogaria",
  "Perfumaria",
  "Farmácia",
  "Comercial",
  "Distribuidora",
  "Magazine",
  "Empório",
  "Atacadão",
] as const;
export const STORE_CHAIN_NAMES = [
  "Boa Saúde",
  "Central",
  "Bela Vista",
  "Popular",
  "São Jorge",
  "Nova Era",
  "Estrela",
  "Brasil Sul",
  "Primavera",
  "Vale Verde",
  "Pague Bem",
  "Do Povo",
  "Santa Luzia",
  "Mais Beleza",
  "Real",
  "Ouro Preto",
  "Horizonte",
  "Litoral",
] as const;
export const COMPANY_SUFFIXES = ["Ltda", "S.A.", "Eireli", "Comércio de Cosméticos Ltda", "Distribuição Ltda"] as const;

/** filial_nome of a branch, e.g. "Loja São Paulo - Paulista". */
export const BRANCH_NAMES: readonly string[] = BRANCHES.map(([city, area]) => `Loja ${city} - ${area}`);
