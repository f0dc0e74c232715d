/* Charts of the Sched Policy benchmark detail page. Data comes from the data-chart attribute
   (JSON written by the engine, HTML-escaped by Jelly); echarts is loaded by the echarts-api adjunct. */
(function () {
  function render() {
    var holder = document.getElementById("schedpolicy-chart-data");
    if (!holder || typeof echarts === "undefined") {
      return;
    }
    var data = JSON.parse(holder.getAttribute("data-chart"));
    function chart(elementId, title, field, yName) {
      var element = document.getElementById(elementId);
      if (!element) {
        return;
      }
      echarts.init(element).setOption({
        title: { text: title, left: "center", textStyle: { fontSize: 14 } },
        tooltip: { trigger: "axis" },
        legend: { bottom: 0 },
        grid: { left: 50, right: 20, top: 40, bottom: 50 },
        xAxis: { type: "category", name: "load (x CPUs)", data: data.loads },
        yAxis: { type: "value", name: yName, min: 0, max: 100 },
        series: data.series.map(function (s) {
          return { name: s.policy, type: "line", connectNulls: false, data: s[field] };
        })
      });
    }
    chart("schedpolicy-chart-kept", "Test job keeps (% of unloaded rate)", "kept", "%");
    chart("schedpolicy-chart-background", "Background gets (% of the CPU the test job left free)", "backgroundFree", "%");
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", render);
  } else {
    render();
  }
})();
