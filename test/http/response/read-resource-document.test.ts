import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createResponseHarness,
  EN,
  EN_REVIEW,
  EN_REVIEW_2,
  type ResponseHarness,
} from './response-fixtures.js';

const JSON_API = 'application/vnd.api+json';

/**
 * JSON:API 1.1 §7.1 (creating) and §7.2 (updating): a request document's primary data is a
 * resource object `{"data":{"type":...,"attributes":{...}}}`. The public system's flat
 * `{"attributes":{...}}` is kept beside it for the clients written against that system.
 */
describe('Response API request bodies as JSON:API documents', () => {
  let h: ResponseHarness;
  const created = (clientName: string, reviewId: string, body: unknown, contentType = JSON_API) =>
    h.call(`/response/v1/clientResponses/${clientName}/reviews/${reviewId}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': contentType },
    });
  const changed = (guid: string, body: unknown, contentType = JSON_API) =>
    h.call(`/response/v1/clientResponses/${guid}`, {
      method: 'PATCH',
      body: JSON.stringify(body),
      headers: { 'content-type': contentType },
    });

  before(async () => {
    h = await createResponseHarness();
  });
  after(() => h.close());

  it('creates a response from a resource document, under either media type', async () => {
    for (const contentType of [JSON_API, 'application/json']) {
      const res = await created(
        EN,
        EN_REVIEW,
        {
          data: {
            type: 'clientResponse',
            attributes: { department: 'Care', response: `Thanks (${contentType})` },
          },
        },
        contentType,
      );
      assert.equal(res.statusCode, 200, res.body);
      const doc = res.json();
      assert.equal(doc.data.type, 'clientResponse');
      assert.equal(doc.data.attributes.response, `Thanks (${contentType})`);
      assert.equal(doc.data.attributes.department, 'Care');
    }
  });

  it('still creates a response from the flat attributes body', async () => {
    const res = await created(EN, EN_REVIEW_2, { attributes: { department: 'Care', response: 'Flat' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.attributes.response, 'Flat');
  });

  it('answers 409 when the resource type is not clientResponse (JSON:API 1.1 §7.1.2)', async () => {
    const res = await created(EN, EN_REVIEW, {
      data: { type: 'review', attributes: { department: 'Care', response: 'Wrong type' } },
    });
    assert.equal(res.statusCode, 409, res.body);
    const error = res.json().errors[0];
    assert.equal(error.code, 'CONFLICT');
    assert.deepEqual(error.source, { pointer: '/data/type' });
    assert.equal(res.json().httpCode, 409);
  });

  it('answers 403 to a client-generated id, which this API does not support (JSON:API 1.1 §7.1.1)', async () => {
    const res = await created(EN, EN_REVIEW, {
      data: {
        type: 'clientResponse',
        id: '6f1c0c34-4a8e-4a52-9f43-1b0f2a0ad111',
        attributes: { department: 'Care', response: 'My own id' },
      },
    });
    assert.equal(res.statusCode, 403, res.body);
    assert.deepEqual(res.json().errors[0].source, { pointer: '/data/id' });
  });

  it('validates the attributes inside data and points at them', async () => {
    const missingType = await created(EN, EN_REVIEW, {
      data: { attributes: { department: 'Care', response: 'x' } },
    });
    assert.equal(missingType.statusCode, 400, missingType.body);
    assert.equal(missingType.json().errors[0].source.pointer, '/data/type');

    const missingText = await created(EN, EN_REVIEW, {
      data: { type: 'clientResponse', attributes: { department: 'Care' } },
    });
    assert.equal(missingText.statusCode, 400, missingText.body);
    assert.equal(missingText.json().errors[0].source.pointer, '/data/attributes/response');

    const unknownMember = await created(EN, EN_REVIEW, {
      data: { type: 'clientResponse', attributes: { department: 'Care', response: 'x', rating: 5 } },
    });
    assert.equal(unknownMember.statusCode, 400, unknownMember.body);
    assert.equal(unknownMember.json().errors[0].source.pointer, '/data/attributes/rating');
  });

  it('refuses a body with neither data nor attributes, or with both', async () => {
    const neither = await created(EN, EN_REVIEW, { meta: {} });
    assert.equal(neither.statusCode, 400, neither.body);
    assert.equal(neither.json().errors[0].code, 'MISSING_PROPERTY');
    // The public system's answer to a body without attributes, naming the JSON:API form too.
    assert.equal(neither.json().errors[0].field, 'attributes');
    assert.match(neither.json().errors[0].detail, /attributes is required \(or data/);

    const attributes = { department: 'Care', response: 'Both' };
    const both = await created(EN, EN_REVIEW, { data: { type: 'clientResponse', attributes }, attributes });
    assert.equal(both.statusCode, 400, both.body);
    assert.equal(both.json().errors[0].code, 'INVALID_REQUEST');

    for (const data of [null, 'clientResponse', [], 7]) {
      const res = await created(EN, EN_REVIEW, { data });
      assert.equal(res.statusCode, 400, `${JSON.stringify(data)}: ${res.body}`);
    }
  });

  it('updates a response from a resource document, with or without its id', async () => {
    const guid = (await h.create(EN, EN_REVIEW, { department: 'Care', response: 'Before' })).json().data.id;

    const withId = await changed(guid, {
      data: { type: 'clientResponse', id: guid, attributes: { response: 'After' } },
    });
    assert.equal(withId.statusCode, 200, withId.body);
    assert.equal(withId.json().data.attributes.response, 'After');

    const withoutId = await changed(guid, {
      data: { type: 'clientResponse', attributes: { department: 'Sales' } },
    });
    assert.equal(withoutId.statusCode, 200, withoutId.body);
    assert.equal(withoutId.json().data.attributes.department, 'Sales');

    const flat = await changed(guid, { attributes: { response: 'Flat again' } }, 'application/json');
    assert.equal(flat.statusCode, 200, flat.body);
    assert.equal(flat.json().data.attributes.response, 'Flat again');
  });

  it('answers 409 to an update whose id or type does not match the resource (JSON:API 1.1 §7.2.3)', async () => {
    const guid = (await h.create(EN, EN_REVIEW, { department: 'Care', response: 'Kept' })).json().data.id;
    const otherId = await changed(guid, {
      data: {
        type: 'clientResponse',
        id: '6f1c0c34-4a8e-4a52-9f43-1b0f2a0ad111',
        attributes: { response: 'No' },
      },
    });
    assert.equal(otherId.statusCode, 409, otherId.body);
    assert.deepEqual(otherId.json().errors[0].source, { pointer: '/data/id' });

    const otherType = await changed(guid, {
      data: { type: 'author', id: guid, attributes: { response: 'No' } },
    });
    assert.equal(otherType.statusCode, 409, otherType.body);

    const after = await h.call(`/response/v1/clientResponses/${guid}`);
    assert.equal(after.json().data.attributes.response, 'Kept');
  });

  it('answers the deprecated prefix the same way', async () => {
    const res = await h.call(`/contentmanagement/v1/clientResponses/${EN}/reviews/${EN_REVIEW}`, {
      method: 'POST',
      body: JSON.stringify({
        data: { type: 'clientResponse', attributes: { department: 'Care', response: 'Old prefix' } },
      }),
      headers: { 'content-type': JSON_API },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.ok(res.headers.deprecation);
  });
});
