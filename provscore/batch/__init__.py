"""Research mode: score thousands of agent predictions into a results database
(``provscore batch``), compare agents (``provscore compare``), export the rows
(``provscore export``). See docs/batch.md."""

from provscore.batch.compare import Comparison, compare, examples, wilson
from provscore.batch.model import Instance, Outcome, PatchRow, Reason, RowKey, Status
from provscore.batch.reports import ReportSource
from provscore.batch.runner import BatchRequest, BatchSummary, run_batch
from provscore.batch.store import ResultsDB

__all__ = ["BatchRequest", "BatchSummary", "Comparison", "Instance", "Outcome", "PatchRow",
           "Reason", "ReportSource", "ResultsDB", "RowKey", "Status", "compare", "examples",
           "run_batch", "wilson"]
