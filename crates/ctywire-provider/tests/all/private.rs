//! Typed private state: written by create and update as JSON in the private bytes, read
//! back in read, update and delete; bytes of another shape are a clear error.

use ctywire::object::Object;
use ctywire::{Known, Value};
use ctywire_provider::{Context, Resource, Result, Server};
use ctywire_tfplugin::dynamic;
use ctywire_tfplugin::tfplugin6::*;

provider!(Test, "test");

#[derive(ctywire::Object)]
struct Doc {
    #[cty(required)]
    text: String,
    /// The etag the private state held when the call began.
    #[cty(computed)]
    seen: Known<String>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Etag {
    etag: u64,
}

struct Docs;

impl Resource<()> for Docs {
    const NAME: &'static str = "doc";
    type State = Doc;
    async fn create(&self, ctx: &Context<()>, mut doc: Doc) -> Result<Doc> {
        let before: Option<Etag> = ctx.private()?;
        doc.seen = Known::Known(format!("{:?}", before.map(|e| e.etag)));
        ctx.set_private(&Etag { etag: 1 })?;
        Ok(doc)
    }
    async fn read(&self, ctx: &Context<()>, mut doc: Doc) -> Result<Option<Doc>> {
        let etag: Option<Etag> = ctx.private()?;
        doc.seen = Known::Known(format!("{:?}", etag.map(|e| e.etag)));
        Ok(Some(doc))
    }
    async fn update(&self, ctx: &Context<()>, _: Doc, mut planned: Doc) -> Result<Doc> {
        let etag = ctx.private::<Etag>()?.map_or(0, |e| e.etag);
        planned.seen = Known::Known(etag.to_string());
        ctx.set_private(&Etag { etag: etag + 1 })?;
        Ok(planned)
    }
    async fn delete(&self, ctx: &Context<()>, _: Doc) -> Result<()> {
        ctx.private::<Etag>()?;
        Ok(())
    }
}

async fn configured() -> Server<Test> {
    let s = Server::new(Test).resource(Docs);
    crate::common::configure(&s, &crate::common::empty()).await;
    s
}

fn doc(seen: Value) -> Value {
    Value::object([("text", Value::from("t")), ("seen", seen)])
}

async fn apply(
    s: &Server<Test>,
    prior: &Value,
    planned: &Value,
    private: &[u8],
) -> apply_resource_change::Response {
    crate::common::apply::<Doc>(s, "test_doc", prior, planned, private).await
}

async fn read(s: &Server<Test>, state: &Value, private: &[u8]) -> read_resource::Response {
    crate::common::read::<Doc>(s, "test_doc", state, private).await
}

fn seen(state: Option<&DynamicValue>) -> Value {
    dynamic::decode(state, &Doc::cty_type())
        .unwrap()
        .get("seen")
        .unwrap()
        .clone()
}

#[tokio::test]
async fn private_state_goes_round_typed() {
    let s = configured().await;
    let created = apply(&s, &Value::Null, &doc(Value::unknown()), b"").await;
    assert!(created.diagnostics.is_empty(), "{:?}", created.diagnostics);
    assert_eq!(seen(created.new_state.as_ref()), Value::from("None"));
    assert_eq!(created.private, br#"{"etag":1}"#);

    let state = doc(Value::from("None"));
    let r = read(&s, &state, &created.private).await;
    assert!(r.diagnostics.is_empty());
    assert_eq!(seen(r.new_state.as_ref()), Value::from("Some(1)"));
    // A read that does not write gives the bytes back as they came.
    assert_eq!(r.private, created.private);

    let updated = apply(&s, &state, &doc(Value::unknown()), &r.private).await;
    assert!(updated.diagnostics.is_empty());
    assert_eq!(seen(updated.new_state.as_ref()), Value::from("1"));
    assert_eq!(updated.private, br#"{"etag":2}"#);

    let deleted = apply(&s, &state, &Value::Null, &updated.private).await;
    assert!(deleted.diagnostics.is_empty());
}

#[tokio::test]
async fn bytes_of_another_shape_are_a_clear_error() {
    let s = configured().await;
    let secret = br#"{"etag":"hunter2"}"#;
    let r = read(&s, &doc(Value::from("x")), secret).await;
    assert_eq!(r.diagnostics.len(), 1);
    let d = &r.diagnostics[0];
    assert_eq!(d.summary, "Invalid private state");
    assert_eq!(
        d.detail,
        "the private state of this test_doc object is not a all::private::Etag in JSON (18 bytes; a value of another shape at line 1 column 17); an earlier version of the provider may have written something else"
    );
    // The state and the private bytes stay as they were.
    assert_eq!(seen(r.new_state.as_ref()), Value::from("x"));
    assert_eq!(r.private, secret);
    let r = apply(&s, &doc(Value::from("x")), &Value::Null, b"not json").await;
    assert_eq!(r.diagnostics[0].summary, "Invalid private state");
}
