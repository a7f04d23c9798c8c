/** OpenAPI 3.1 description of every endpoint, served at GET /api/openapi.json. */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const num = { type: 'number' };
const str = { type: 'string' };
const bool = { type: 'boolean' };
const date = { type: 'string', format: 'date' };

const errorResponse = (description: string) => ({ description, content: json(ref('Error')) });
const premiumErrorResponse = (description: string) => ({
  description,
  content: json(ref('PremiumError')),
});
const cached = {
  headers: {
    ETag: { schema: str, description: 'Strong validator; send it back in If-None-Match.' },
    'Cache-Control': { schema: str, description: 'public, max-age=60' },
  },
};
const notModified = { description: 'Not modified (If-None-Match matched the ETag).' };
const unavailable = errorResponse(
  'A data file this endpoint needs has never loaded (see /api/health).',
);
const rateLimited = {
  description: 'Too many requests from this client.',
  headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
  content: json(ref('Error')),
};
const jsonPostErrors = {
  '413': errorResponse('Body larger than 16 KB.'),
  '415': errorResponse('Content-Type is not application/json.'),
  '429': rateLimited,
};
const seriesId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: {
    oneOf: [
      { type: 'integer', minimum: 1 },
      { type: 'string', enum: ['base-stablecoin', 'base-defi'] },
    ],
  },
};

export function openApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Global Yield Leaderboard API',
      version,
      description:
        'Yields, risk-adjusted APR (method ra30-v1), site settings, mailing list and premium access. All errors are JSON {error: {code, message}}.',
    },
    servers: [{ url: '/' }],
    paths: {
      '/api/health': {
        get: {
          summary: 'Data status: each data file, whether it loaded and its last error.',
          responses: {
            '200': { description: 'Health report', content: json(ref('HealthReport')) },
          },
        },
      },
      '/api/settings': {
        get: {
          summary: 'Site settings and external URLs.',
          responses: {
            '200': { description: 'Settings', ...cached, content: json(ref('SiteSettings')) },
            '304': notModified,
            '503': unavailable,
          },
        },
      },
      '/api/sources': {
        get: {
          summary: 'The static yield list, both DeFi Base Rate rows (id 0) last.',
          responses: {
            '200': {
              description: 'Sources',
              ...cached,
              content: json({ type: 'array', items: ref('YieldSource') }),
            },
            '304': notModified,
            '503': unavailable,
          },
        },
      },
      '/api/strategies': {
        get: {
          summary: 'Live metrics of every source, computed from history by ra30-v1.',
          responses: {
            '200': {
              description: 'Metrics',
              ...cached,
              content: json({ type: 'array', items: ref('StrategyMetrics') }),
            },
            '304': notModified,
            '503': unavailable,
          },
        },
      },
      '/api/baserate': {
        get: {
          summary: 'The two DeFi Base Rates: 30-day APR and risk-adjusted APR.',
          responses: {
            '200': { description: 'Base rates', ...cached, content: json(ref('BaseRates')) },
            '304': notModified,
            '503': unavailable,
          },
        },
      },
      '/api/history': {
        get: {
          summary: 'Daily history of one source (newest N days) and its latest metrics.',
          parameters: [
            {
              name: 'id',
              in: 'query',
              required: true,
              schema: {
                oneOf: [
                  { type: 'integer' },
                  { type: 'string', enum: ['base-stablecoin', 'base-defi'] },
                ],
              },
            },
            {
              name: 'range',
              in: 'query',
              required: true,
              schema: { type: 'string', enum: ['7D', '30D', '90D', '180D'] },
            },
          ],
          responses: {
            '200': { description: 'History', ...cached, content: json(ref('HistoryResponse')) },
            '304': notModified,
            '400': errorResponse(
              'Missing or unknown id, or a range other than 7D, 30D, 90D, 180D.',
            ),
            '503': unavailable,
          },
        },
      },
      '/api/strategies/{id}/breakdown': {
        get: {
          summary:
            'Every charge of the ra30-v1 formula for one source or base rate, with its inputs.',
          parameters: [seriesId],
          responses: {
            '200': { description: 'Breakdown', ...cached, content: json(ref('RiskBreakdown')) },
            '304': notModified,
            '400': errorResponse('Not a numeric id nor base-stablecoin / base-defi.'),
            '404': errorResponse('No such source.'),
            '503': unavailable,
          },
        },
      },
      '/api/strategy-content/{slug}': {
        get: {
          summary: 'Detail page content of one of the four public strategies.',
          parameters: [
            {
              name: 'slug',
              in: 'path',
              required: true,
              schema: { type: 'string', enum: ['liquity', 'sky-spark', 'gauntlet', 'lido'] },
            },
          ],
          responses: {
            '200': { description: 'Content', ...cached, content: json(ref('StrategyContent')) },
            '304': notModified,
            '404': errorResponse('Unknown slug.'),
            '503': unavailable,
          },
        },
      },
      '/api/addToMailList': {
        post: {
          summary: 'Adds an email to the mailing list (stored once, case-insensitively).',
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['email'],
              properties: {
                email: { type: 'string', format: 'email' },
                source: { type: 'string', maxLength: 64 },
              },
            }),
          },
          responses: {
            '201': {
              description: 'Added.',
              content: json({ type: 'object', properties: { success: bool, created: bool } }),
            },
            '200': {
              description: 'Already on the list (a success, not a duplicate).',
              content: json({ type: 'object', properties: { success: bool, created: bool } }),
            },
            '400': errorResponse('Invalid email or malformed JSON.'),
            ...jsonPostErrors,
          },
        },
      },
      '/api/premium': {
        post: {
          summary: 'Logs in with an invite code: returns a 30-day premium token and the user.',
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['inviteCode'],
              properties: { inviteCode: str },
            }),
          },
          responses: {
            '200': { description: 'Logged in.', content: json(ref('PremiumInviteResponse')) },
            '400': premiumErrorResponse('inviteCode missing.'),
            '401': premiumErrorResponse('Wrong, expired or used-up invite code.'),
            ...jsonPostErrors,
          },
        },
      },
      '/api/premiumLogin': {
        post: {
          summary: 'Binds an email to an invite code and returns a token with the email in it.',
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['email', 'inviteCode'],
              properties: { email: { type: 'string', format: 'email' }, inviteCode: str },
            }),
          },
          responses: {
            '200': { description: 'Activated.', content: json(ref('PremiumLoginResponse')) },
            '400': premiumErrorResponse('Invalid email or missing code.'),
            '401': premiumErrorResponse('Wrong, expired or used-up invite code.'),
            ...jsonPostErrors,
          },
        },
      },
      '/api/premium/strategies/{id}': {
        get: {
          summary:
            'Premium analysis of one strategy (ready for known sources, "analyzing" otherwise).',
          security: [{ bearerAuth: [] }],
          parameters: [
            {
              name: 'id',
              in: 'path',
              required: true,
              schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
            },
          ],
          responses: {
            '200': { description: 'Analysis', content: json(ref('PremiumStrategyAnalysis')) },
            '400': errorResponse('Malformed id.'),
            '401': errorResponse('Missing, invalid, expired or non-premium token.'),
          },
        },
      },
      '/api/openapi.json': {
        get: {
          summary: 'This document.',
          responses: { '200': { description: 'OpenAPI 3.1', ...cached } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (HS256)' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: str, message: str },
            },
          },
        },
        PremiumError: {
          type: 'object',
          required: ['success', 'error'],
          properties: {
            success: { const: false },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: str, message: str },
            },
          },
        },
        SiteSettings: {
          type: 'object',
          properties: {
            siteTitle: str,
            siteUrl: str,
            siteSlogan: str,
            siteHeader: str,
            siteDescription: str,
            siteContactEmail: str,
            socials: { type: 'object', properties: { x: str, telegram: str } },
            externalUrls: {
              type: 'object',
              properties: {
                premiumPurchaseForm: str,
                premiumRequestForm: str,
                businessSignupForm: str,
                apiDocs: str,
              },
            },
            data: { type: 'object', properties: { sample: bool, asOf: date } },
          },
        },
        Incident: {
          type: 'object',
          properties: { date, kind: str, summary: str, link: str, active: bool },
        },
        YieldSource: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            name: str,
            token: str,
            yieldToken: str,
            type: { enum: ['stablecoin', 'defi'] },
            rating: { type: 'integer', minimum: 1, maximum: 5 },
            safety: { type: 'integer', minimum: 1, maximum: 5 },
            liquidity: { type: 'integer', minimum: 1, maximum: 5 },
            yield_type: str,
            real_or_incentive: { enum: ['Real', 'Mixed'] },
            yield_category: str,
            isBaseRate: bool,
            detailSlug: { enum: ['liquity', 'sky-spark', 'gauntlet', 'lido', null] },
            incidents: { type: 'array', items: ref('Incident') },
          },
        },
        StrategyMetrics: {
          type: 'object',
          required: ['id', 'yield30d', 'riskAdjustedYield30d', 'tvl'],
          properties: {
            id: { type: 'integer' },
            yield30d: num,
            riskAdjustedYield30d: num,
            tvl: num,
            status: { enum: ['ok', 'insufficient_data'] },
            method: str,
            risk: num,
            great: bool,
          },
        },
        BaseRates: {
          type: 'object',
          required: [
            'baserateDefi',
            'baserateStable',
            'baserateRiskAdjustedDefi',
            'baserateRiskAdjustedStable',
          ],
          properties: {
            baserateDefi: num,
            baserateStable: num,
            baserateRiskAdjustedDefi: num,
            baserateRiskAdjustedStable: num,
          },
        },
        HistoryPoint: {
          type: 'object',
          properties: {
            timestamp: { type: 'integer', description: 'ms, UTC midnight' },
            tvl: num,
            apr: num,
          },
        },
        HistoryResponse: {
          type: 'object',
          properties: {
            data: { type: 'array', items: ref('HistoryPoint') },
            lastTvl: num,
            lastApr: num,
            lastRaApr: num,
          },
        },
        RiskBreakdown: {
          type: 'object',
          properties: {
            id: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
            method: str,
            asOf: date,
            status: { enum: ['ok', 'insufficient_data'] },
            window: {
              type: 'object',
              properties: { from: date, to: date, days: { type: 'integer' } },
            },
            inputs: {
              type: 'object',
              properties: {
                safety: num,
                liquidity: num,
                sigma30: num,
                reward30: num,
                tvl: num,
                tvlMedian: num,
                tvlDrawdown: num,
                clampedDays: { type: 'integer' },
              },
            },
            yield30d: num,
            riskAdjustedYield30d: num,
            risk: num,
            charges: {
              type: 'object',
              properties: {
                volatility: num,
                incentives: num,
                safety: num,
                liquidity: num,
                size: num,
                outflow: num,
              },
            },
            great: bool,
          },
        },
        StrategyContent: {
          type: 'object',
          description:
            'Detail page content; see packages/platform/src/api-types.ts StrategyContent.',
          properties: {
            id: { type: 'integer' },
            slug: str,
            name: str,
            marketCap: str,
            rank: str,
            riskRatingBars: { enum: [4, 5] },
            holdings: {
              type: 'array',
              items: {
                type: 'object',
                properties: { name: str, percentage: num, color: str, description: str },
              },
            },
            thirdPartyRatings: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  provider: str,
                  providerUrl: str,
                  value: str,
                  date,
                  link: { type: ['string', 'null'] },
                },
              },
            },
            diagram: { type: 'object' },
            liquidity: { type: 'object', properties: { sample: bool, points: { type: 'array' } } },
          },
        },
        PremiumUser: {
          type: 'object',
          properties: {
            userId: str,
            email: { type: ['string', 'null'] },
            accessLevel: { const: 'premium' },
          },
        },
        PremiumInviteResponse: {
          type: 'object',
          properties: { success: bool, token: str, user: ref('PremiumUser') },
        },
        PremiumLoginResponse: {
          type: 'object',
          properties: { success: bool, token: str, user: ref('PremiumUser') },
        },
        PremiumStrategyAnalysis: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            name: str,
            status: { enum: ['ready', 'analyzing'] },
            source: { oneOf: [ref('YieldSource'), { type: 'null' }] },
            breakdown: { oneOf: [ref('RiskBreakdown'), { type: 'null' }] },
            history: { type: 'array', items: ref('HistoryPoint') },
            summary: str,
          },
        },
        HealthReport: {
          type: 'object',
          properties: {
            status: { enum: ['ok', 'degraded'] },
            version: str,
            files: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                properties: {
                  loaded: bool,
                  loadedAt: { type: ['string', 'null'] },
                  error: { type: ['string', 'null'] },
                },
              },
            },
          },
        },
      },
    },
  };
}
