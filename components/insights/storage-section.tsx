import { Link } from "@/components/ui/link";
import type { InsightsOverview } from "@/lib/insights";
import { filteredChatsHref, storageFilter } from "@/lib/insights/links";
import {
  activityFolderTable,
  activityTable,
  formatBytes,
  formatTable,
  largestChatsTable,
  storageFolderTable,
} from "@/lib/insights/tables";
import { BarChart } from "./bar-chart";
import { ChartCard } from "./chart-card";
import { InsightsSection } from "./section";
import { TopFoldersChart } from "./top-folders-chart";

const n = (v: number) => v.toLocaleString("en");

/** Activity: chats started and active per day, chats per folder. */
export function ActivitySection({ overview: o }: { overview: InsightsOverview }) {
  const days = o.activity.days;
  return (
    <InsightsSection id="activity" title="Activity">
      <ChartCard
        title="Chats started and active per day"
        table={activityTable(o.activity)}
        file="chats-per-day"
        chart={
          <BarChart
            stacked={false}
            categories={days.map((d) => d.date)}
            series={[
              { label: "Chats started", values: days.map((d) => d.started) },
              { label: "Chats active", values: days.map((d) => d.active) },
            ]}
            label={`Chats started and chats active on each of ${days.length} days. The table view lists every number.`}
          />
        }
      />
      <ChartCard title="Chats per working folder" table={activityFolderTable(o.activity)} file="chats-per-folder" />
    </InsightsSection>
  );
}

/** Storage: bytes per folder and chat, current against older generations, checkpoints and locks. */
export function StorageSection({ overview: o }: { overview: InsightsOverview }) {
  const s = o.storage.totals;
  return (
    <InsightsSection id="storage" title="Storage">
      <ul className="space-y-1 text-zinc-700 dark:text-zinc-300">
        <li>
          {n(s.chats)} chats take {formatBytes(s.totalBytes)} on disk.{" "}
          <Link
            href={filteredChatsHref(storageFilter(o.storage.cwd ?? undefined))}
            className="text-blue-800 underline dark:text-blue-300"
          >
            The chats and their bytes
          </Link>
        </li>
        <li>
          Current logs: {formatBytes(s.currentBytes)}, {formatBytes(s.decompressedBytes)} decompressed.
        </li>
        <li>
          Older log generations: {formatBytes(s.olderBytes)} in {n(s.olderLogs)} logs (with the log files of chats with
          no usable log, which are of the other form or not to be opened). Nothing removes session files for you;
          archiving older generations is not available yet.
        </li>
        <li>
          Checkpoints: {formatBytes(s.checkpointBytes)} in {n(s.checkpoints)} files. Lock files:{" "}
          {formatBytes(s.lockBytes)} in {n(s.locks)} files.
        </li>
      </ul>
      <TopFoldersChart
        title="Bytes on disk per working folder"
        table={storageFolderTable(o.storage)}
        file="bytes-per-folder"
        folders={o.storage.folders}
        series={[
          { label: "Current logs", value: (f) => f.currentBytes },
          { label: "Older generations", value: (f) => f.olderBytes },
          { label: "Checkpoints", value: (f) => f.checkpointBytes },
          { label: "Locks", value: (f) => f.lockBytes },
        ]}
        labelFor={(shown) =>
          `Bytes on disk of the ${shown} largest working folders, by kind of file. The table view lists every folder.`
        }
      />
      <ChartCard title="Current logs per format" table={formatTable(o.storage)} file="bytes-per-format" />
      <ChartCard title="Largest chats" table={largestChatsTable(o.storage)} file="largest-chats" />
    </InsightsSection>
  );
}
