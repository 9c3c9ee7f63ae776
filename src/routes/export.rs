//! A person's data, whole: `GET /api/me/export` (and an admin's `GET /api/admin/users/{id}/export`, audited)
//! answer one ZIP archive: `tables/<table>.json` with her rows of every table that names her (secrets'
//! hashes withheld), and `summary.html`, in her language, saying what is where. Written as it streams: the
//! store is read a page at a time and the archive leaves in chunks, so memory stays bounded however long her
//! history; a second export of the same person while one runs gets 429.

use std::io::Write;
use std::sync::Arc;

use axum::body::Body;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audit::{Action, audit};
use super::openapi::{ADMIN, USER};
use crate::app::{App, AppState};
use crate::auth::{Admin, CurrentUser};
use crate::error::{ApiError, Result};
use crate::store::users::User;

/// Parts of the archive on their way to the zipper, and chunks of it on their way out.
const IN_FLIGHT: usize = 8;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(mine)).routes(routes!(of_user))
}

/// What the reader sends the zipper: a file begins, or bytes of the current one.
enum Part {
    File(String),
    Bytes(Vec<u8>),
}

/// Everything the gateway keeps about me, as a ZIP archive of JSON files with a summary in my language.
#[utoipa::path(get, path = "/api/me/export", tag = USER, responses(
    (status = 200, description = "the archive", content_type = "application/zip"),
    (status = 429, description = "an export of this person is being written")))]
async fn mine(State(app): State<AppState>, caller: CurrentUser) -> Result<Response> {
    archive(app.0.clone(), caller.user)
}

/// Everything the gateway keeps about a person, for her (audited, and in her access log).
#[utoipa::path(get, path = "/api/admin/users/{user_id}/export", tag = ADMIN, responses(
    (status = 200, description = "the archive", content_type = "application/zip"),
    (status = 404, description = "no such user"), (status = 429, description = "an export of this person is being written")))]
async fn of_user(State(app): State<AppState>, admin: Admin, Path(id): Path<String>) -> Result<Response> {
    let user = app.store.user_by_id(&id).await?.ok_or(ApiError::NotFound("user"))?;
    audit(&app, &admin, &id, Action::UserExport {}).await?;
    super::access::looked(&app, &id, super::access::reader_of(&admin), "export").await?;
    archive(app.0.clone(), user)
}

/// The streamed archive of `user`.
fn archive(app: Arc<App>, user: User) -> Result<Response> {
    let Some(running) = app.exports.start(&user.id) else {
        return Err(ApiError::Busy(
            "an export of this person is being written; try again when it is done".into(),
        ));
    };
    let (parts, to_zip) = mpsc::channel::<Part>(IN_FLIGHT);
    let (chunks, out) = mpsc::channel::<std::io::Result<Bytes>>(IN_FLIGHT);
    let failed = chunks.clone();
    tokio::task::spawn_blocking(move || {
        if let Err(err) = zip(to_zip, Chunks(chunks)) {
            tracing::warn!(%err, "an export could not be written");
            let _ = failed.blocking_send(Err(std::io::Error::other(err.to_string())));
        }
    });
    let file = format!("attachment; filename=\"voice-gateway-{}.zip\"", user.name);
    tokio::spawn(async move {
        let _running = running;
        if let Err(err) = read(&app, &user, &parts).await {
            tracing::warn!(%err, "an export could not be read");
        }
    });
    let mut out = out;
    let body = Body::from_stream(futures_util::stream::poll_fn(move |cx| out.poll_recv(cx)));
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (header::CONTENT_DISPOSITION, file),
        ],
        body,
    )
        .into_response())
}

/// Reads `user`'s rows, table by table and page by page, and hands them to the zipper; the summary last.
async fn read(app: &App, user: &User, parts: &mpsc::Sender<Part>) -> Result<()> {
    let send = |part| async {
        parts
            .send(part)
            .await
            .map_err(|_| ApiError::Internal("the export was cancelled".into()))
    };
    let mut counts = Vec::new();
    for table in app.store.export_tables().await? {
        send(Part::File(format!("tables/{}.json", table.name))).await?;
        send(Part::Bytes(b"[".to_vec())).await?;
        let mut rows = 0usize;
        for page in 0.. {
            let found = app.store.export_page(&table, &user.id, page).await?;
            for row in &found {
                let separator = if rows == 0 { "\n" } else { ",\n" };
                send(Part::Bytes(format!("{separator}{row}").into_bytes())).await?;
                rows += 1;
            }
            if (found.len() as i64) < crate::store::export::PAGE {
                break;
            }
        }
        send(Part::Bytes(b"\n]\n".to_vec())).await?;
        counts.push((table.name.clone(), rows));
    }
    let lang = app.store.prefs(&user.id).await?.language.unwrap_or_default();
    send(Part::File("summary.html".into())).await?;
    send(Part::Bytes(summary(&lang, user, &counts).into_bytes())).await
}

/// Writes the parts as a ZIP archive into `out` (blocking work).
fn zip(mut parts: mpsc::Receiver<Part>, out: Chunks) -> zip::result::ZipResult<()> {
    let mut archive = zip::ZipWriter::new_stream(out);
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    while let Some(part) = parts.blocking_recv() {
        match part {
            Part::File(name) => archive.start_file(name, options)?,
            Part::Bytes(bytes) => archive.write_all(&bytes)?,
        }
    }
    archive.finish()?.flush()?;
    Ok(())
}

/// The archive's bytes, sent on in chunks of 64 KiB.
struct Chunks(mpsc::Sender<std::io::Result<Bytes>>);

impl Write for Chunks {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = buf.len().min(64 * 1024);
        self.0
            .blocking_send(Ok(Bytes::copy_from_slice(&buf[..n])))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client left"))?;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The archive's readable page, in `lang` (the gateway's default when unset).
fn summary(lang: &str, user: &User, counts: &[(String, usize)]) -> String {
    use crate::emergency::dossier::xml_escape;
    let lang = if crate::phrasebook::knows(lang) {
        lang
    } else {
        crate::phrasebook::FALLBACK
    };
    let words = crate::phrasebook::Words::formal(lang);
    let name = if user.display_name.is_empty() {
        &user.name
    } else {
        &user.display_name
    };
    let date = chrono::Utc::now().format("%Y-%m-%d %H:%M UTC").to_string();
    let intro = words.with("export-intro", &[("name", name.as_str().into()), ("date", date.into())]);
    let rows: String = counts
        .iter()
        .map(|(table, n)| format!("<tr><td>tables/{table}.json</td><td>{n}</td></tr>\n"))
        .collect();
    format!(
        "<!doctype html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\"><title>{title}</title></head><body>\n\
         <h1>{title}</h1>\n<p>{intro}</p>\n<p>{files}</p>\n<table>\n<tr><th>{file}</th><th>{count}</th></tr>\n{rows}</table>\n\
         <p>{withheld}</p>\n</body></html>\n",
        title = xml_escape(&words.get("export-title")),
        intro = xml_escape(&intro),
        files = xml_escape(&words.get("export-files")),
        file = xml_escape(&words.get("export-file")),
        count = xml_escape(&words.get("export-rows")),
        withheld = xml_escape(&words.get("export-withheld")),
    )
}
