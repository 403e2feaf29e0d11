"""The screen's words in Italian (en.py explains the format: the same lines in the same order)."""

WORDS = """Bianco|Nero
Muove il %s|Muove %s
%s sotto scacco|%s: scacco
Vince il %s|Vince %s
Patta
senza orologio
%s: manca %s|%s manca %s|%s: %s?
%s: togli pezzo|%s: togli
%s: casa errata
Scacchiera:
Posa errata:
+%d altre
Promuove: %s|= %s
Tessera: %s|Tess.: %s
Posa %s
Motore %d pensa|Motore %d ...
contro motore %d|vs motore %d
contro computer
%s offre patta|%s: patta?
Patta reclamabile|Patta: reclama
Diagnostica
|pedone|cavallo|alfiere|torre|donna|re
scacco matto|stallo|materiale insuff.|50 mosse|75 mosse|ripetizione|5 ripetizioni|abbandono|accordo|tempo scaduto|abbandonata
Menu  ok: cambia|Menu
ok: nuova?|ok: nuova
Nuova partita|Problema|Tempo|Vs|Aiuti|Luci|Luce|Lingua|USB
si|no|n/d|persona|computer|motore
Gioca: %s|Gioca %s
Problema %d|Probl. %d
Errata: annullata|Mossa errata
Risolto|Risolto
Non risolto|Fallito
Giuste %d/%d|%d/%d
Non salvato|Non salvato"""
